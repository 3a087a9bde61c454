// The SessionAgent Durable Object: one per chat session, as a class to extend. A subclass supplies
// the model only (`respond`, ./model.ts); the contract of docs/agent-protocol.md (protocol 7) is
// kept by the session's machinery (./session.ts, internal), built on the object's first call, so
// that the constructor calls nothing a subclass overrides. The class has the Durable Object's entry
// points (`fetch`, `webSocketMessage`, `webSocketClose`, `webSocketError`) and `respond`, nothing
// else.

import { DurableObject } from "cloudflare:workers";
import type { Emit, ModelInput, ModelResult, Respond } from "./model.js";
import { ENGINE, Session } from "./session.js";

/** What a subclass of the repository's tests builds its session with (./session.ts, ENGINE). */
type Engine = { [ENGINE]?: (respond: Respond) => Session };

export abstract class SessionAgent<Env = unknown> extends DurableObject<Env> {
  #session: Session | undefined;

  /** The model: one turn, from its input to its result (./model.ts says what each may do). */
  protected abstract respond(input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult>;

  /** The adapter's upgrade: the socket accepted (hibernatable), and its `init`. */
  async fetch(request: Request): Promise<Response> {
    return this.#engine().fetch(request);
  }

  async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    return this.#engine().webSocketMessage(ws, data);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    return this.#engine().webSocketClose(ws, code, reason);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    return this.#engine().webSocketError(ws);
  }

  /** The session's machinery, built on the first call (the constructor has ended by then). */
  #engine(): Session {
    if (!this.#session) {
      const respond: Respond = (input, emit, signal) => this.respond(input, emit, signal);
      this.#session = (this as Engine)[ENGINE]?.(respond) ?? new Session(this.ctx, respond);
    }
    return this.#session;
  }
}
