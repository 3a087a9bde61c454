// The reference SessionAgent: the library's Durable Object (packages/session-agent) with this
// agent's model (./model.ts: a scripted model by default, Workers AI with MODEL = "workers-ai").

import { SessionAgent as Base } from "../../../packages/session-agent/src/index";
import { ENGINE, Session } from "../../../packages/session-agent/src/session";
import { respond, type Emit, type ModelEnv, type ModelInput, type ModelResult, type Respond } from "./model";

export interface Env extends ModelEnv {
  /** "minimal": an agent that keeps only the MUSTs of the contract (no `requestId` echo, no turn
   * in flight in `init`, errors without `code`, no protocol said, its own ids for user messages,
   * every turn appended, no branches or pages: an agent of protocol 3 or older), to see how the
   * adapter degrades. A mode of this repository's tests: it builds the library's session from its
   * internal module, which the package does not export. */
  AGENT_MODE?: string;
}

export class SessionAgent extends Base<Env> {
  protected respond(input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult> {
    return respond(input, emit, signal, this.env);
  }

  /** The session, in the minimal mode when AGENT_MODE says so. */
  protected [ENGINE](model: Respond): Session {
    return new Session(this.ctx, model, { minimal: this.env.AGENT_MODE === "minimal" });
  }
}
