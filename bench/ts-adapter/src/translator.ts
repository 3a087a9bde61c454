// V2 frames → AI SDK UI message chunks: seed 004's `translateV2ToAISDK` pseudocode, made
// correct. Same mapping as the README's table (and as the Rust core in src/translator/): one
// turn followed (the `message.create` echoing our `requestId`, else the first on the default
// channel), `start` + `start-step`, lazily opened text/reasoning parts closed before anything
// else, tool chunks with `providerExecuted`/`dynamic`, a question ending the stream (as the
// `X-Questions` header asks: the AI SDK's client-side tool calls `askUser` / `approveToolCall`, a
// tool approval on the gated call, or a `data-question`), and exactly one ending; `start` carries `messageMetadata` `{ turnId, createdAt }` and `finish`
// `{ turnId, durationMs, toolCalls, toolErrors }` (the Rust core's metadata).
//
// Written the way a competent TypeScript developer would: `JSON.parse` each frame, validate it
// by hand, push plain chunk objects, `JSON.stringify` each chunk into an SSE event.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---- V2 frames (what the Durable Object sends) ------------------------------------------------

export type ToolStatus = "pending" | "running" | "completed" | "error";

export type Frame =
  | { type: "message.create"; turnId: string; channelType?: string; requestId?: string }
  | { type: "message.part.text-delta"; turnId: string; delta: string }
  | { type: "message.part.reasoning-delta"; turnId: string; delta: string }
  | {
      type: "message.part.tool-update";
      turnId: string;
      callId: string;
      toolName: string;
      status: ToolStatus;
      args?: Json;
      result?: Json;
      error?: Json;
    }
  | { type: "message.finalize"; turnId: string; reason: string; finalText?: string; error?: Json; usage?: Json; model?: Json }
  | { type: "complete" }
  | { type: "agentStatus"; status: string; detail?: Json }
  | { type: "chunk"; content: string }
  | { type: "question"; questionId: string; text: string; toolCallId?: string; options?: Json; answer?: Json }
  | { type: "error"; message?: Json; error?: Json }
  | { type: "other" };

export class MalformedFrame extends Error {}

type Obj = Record<string, unknown>;

function str(o: Obj, key: string): string {
  const v = o[key];
  if (typeof v !== "string") throw new MalformedFrame(`\`${key}\` must be a string`);
  return v;
}

/** An optional string: absent or null is undefined; anything else must be a string. */
function optStr(o: Obj, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new MalformedFrame(`\`${key}\` must be a string`);
  return v;
}

/** An optional JSON value: absent or null is undefined. */
function optJson(o: Obj, key: string): Json | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : (v as Json);
}

const TOOL_STATUSES = new Set(["pending", "running", "completed", "error"]);

/** Parses one WebSocket text message; throws MalformedFrame for anything unusable. */
export function parseFrame(text: string): Frame {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new MalformedFrame(`not JSON: ${(e as Error).message}`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new MalformedFrame("not a JSON object");
  const o = v as Obj;
  const type = o.type;
  if (typeof type !== "string") throw new MalformedFrame("no string `type`");
  switch (type) {
    case "message.create":
      return { type, turnId: str(o, "turnId"), channelType: optStr(o, "channelType"), requestId: optStr(o, "requestId") };
    case "message.part.text-delta":
    case "message.part.reasoning-delta":
      return { type, turnId: str(o, "turnId"), delta: str(o, "delta") };
    case "message.part.tool-update": {
      const turnId = str(o, "turnId");
      const callId = str(o, "callId");
      const toolName = str(o, "toolName");
      const status = str(o, "status");
      if (!TOOL_STATUSES.has(status)) throw new MalformedFrame(`unknown tool status ${status}`);
      return {
        type, turnId, callId, toolName, status: status as ToolStatus,
        args: optJson(o, "args"), result: optJson(o, "result"), error: optJson(o, "error"),
      };
    }
    case "message.finalize":
      return { type, turnId: str(o, "turnId"), reason: str(o, "reason"), finalText: optStr(o, "finalText"), error: optJson(o, "error"), usage: optJson(o, "usage"), model: optJson(o, "model") };
    case "complete":
      return { type };
    case "agentStatus":
      return { type, status: str(o, "status"), detail: optJson(o, "detail") };
    case "chunk":
      return { type, content: str(o, "content") };
    case "question":
      return { type, questionId: str(o, "questionId"), text: str(o, "text"), toolCallId: optStr(o, "toolCallId"), options: optJson(o, "options"), answer: optJson(o, "answer") };
    case "error":
      return { type, message: optJson(o, "message"), error: optJson(o, "error") };
    default:
      return { type: "other" };
  }
}

// ---- UI message chunks (what the AI SDK client reads) -----------------------------------------

export interface StartMetadata { turnId: string; createdAt: number }
export interface FinishMetadata { turnId: string; durationMs: number; toolCalls: number; toolErrors: number; stopped?: true; usage?: Usage; model?: string }

/** Tokens a turn used, as the agent's `message.finalize` reported them (the AI SDK's names). */
export interface Usage { inputTokens?: number; outputTokens?: number }

/** The largest token count kept: `Number.MAX_SAFE_INTEGER`, as the Rust core's `MAX_TOKENS`. */
const MAX_TOKENS = Number.MAX_SAFE_INTEGER;
/** The longest `model` kept, in UTF-8 bytes, as the Rust core's `MAX_MODEL_BYTES`. */
const MAX_MODEL_BYTES = 256;

/** `usage` read leniently: each count a whole number 0..MAX_TOKENS, else dropped; neither is none. */
function readUsage(value: Json | undefined): Usage | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const count = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_TOKENS ? v : undefined);
  const usage: Usage = {};
  const input = count(value.inputTokens);
  const output = count(value.outputTokens);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  return input === undefined && output === undefined ? undefined : usage;
}

/** `model` read leniently: a string of 1 to MAX_MODEL_BYTES bytes, else dropped. */
function readModel(value: Json | undefined): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return new TextEncoder().encode(value).length <= MAX_MODEL_BYTES ? value : undefined;
}
type QuestionData = { questionId: string; text: string; options?: Json; toolCallId?: string; answer?: Json };

/** What the agent's questions become (`X-Questions`, the Rust core's `QuestionParts`). */
export type QuestionParts = "tools" | "approvals" | "data";

/** Reads an `X-Questions` value: one of the three names, else undefined. */
export function questionParts(value: string | null): QuestionParts | undefined {
  return value === "tools" || value === "approvals" || value === "data" ? value : undefined;
}

export type UIChunk =
  | { type: "start"; messageId: string; messageMetadata: StartMetadata }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start" | "text-end" | "reasoning-start" | "reasoning-end"; id: string }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; providerExecuted: true; dynamic: true }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: Json; providerExecuted: true; dynamic: true }
  | { type: "tool-output-available"; toolCallId: string; output: Json; providerExecuted: true; dynamic: true }
  | { type: "tool-output-error"; toolCallId: string; errorText: string; providerExecuted: true; dynamic: true }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; providerExecuted: false; dynamic: false }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: Json; providerExecuted: false; dynamic: false }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  | { type: "data-status"; data: { phase: string; label?: string }; transient: true }
  | { type: "data-question"; id: string; data: QuestionData }
  | { type: "error"; errorText: string }
  | { type: "message-metadata"; messageMetadata: FinishMetadata }
  | { type: "abort" }
  | { type: "finish"; messageMetadata?: FinishMetadata };

export const CONNECTION_LOST = "connection to the agent was lost";
export const AGENT_ERROR = "the agent reported an error";
const DEFAULT_FAILURE = "Operation failed";
const DEFAULT_TOOL_ERROR = "Tool failed";

/** The human text of an error value: a non-blank string, or an object's `message`. */
export function errorText(v: Json | undefined): string | undefined {
  if (typeof v === "string") return v.trim() === "" ? undefined : v;
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return errorText(v.message);
  return undefined;
}

/** The failure a `completed` tool's result reports (seed 003's three shapes), if any. */
function failureText(result: Json | undefined): string | undefined {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return undefined;
  if (result.success === false) return errorText(result.error) ?? DEFAULT_FAILURE;
  const error = result.error;
  if (error === true) return errorText(result.message) ?? DEFAULT_FAILURE;
  if (typeof error === "string") return error.trim() === "" ? DEFAULT_FAILURE : error;
  return undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

function statusChunk(status: string, detail: Json | undefined): UIChunk | undefined {
  let phase: string;
  switch (status) {
    case "thinking": phase = "thinking"; break;
    case "tool_calling": phase = "tool_use"; break;
    case "compacting": phase = "compacting"; break;
    default: return undefined;
  }
  const data: { phase: string; label?: string } = { phase };
  if (phase === "tool_use" && typeof detail === "string" && TOOL_NAME.test(detail)) data.label = detail;
  return { type: "data-status", data, transient: true };
}

const enum Stage { InputStarted, InputAvailable, Done }

interface Call { name: string; args: Json | undefined; stage: Stage }

/** `awaiting-answer`: the turn asked the user something; the stream ends with `finish`. */
type Ending = { kind: "finish" } | { kind: "error"; text: string } | { kind: "abort" } | { kind: "awaiting-answer" };

export type EndCause = "socket-closed" | "client-gone";

/**
 * The open part's delta frames known by their text, as the Rust core knows them
 * (src/v2/shape.rs): agents write every delta of a turn the same way, the `type` first (an
 * object literal) or the keys sorted, so a frame that is exactly those characters around a
 * delta with no quote, backslash or control character is that delta, with no `JSON.parse`; and
 * its event is the part's constant head, the delta, and a constant tail, with no
 * `JSON.stringify`. The same trick in both adapters: the benchmark compares like with like.
 */
export class DeltaShape {
  private readonly typeFirst: string;
  private readonly sortedClosing: string;
  /** `data: {"type":"text-delta","id":"<id>","delta":"`: what `sse()` writes before the delta. */
  private readonly head: string;

  constructor(
    readonly kind: "text" | "reasoning",
    readonly turnId: string,
    readonly partId: string,
  ) {
    const type = `message.part.${kind}-delta`;
    const turn = JSON.stringify(turnId);
    this.typeFirst = `{"type":"${type}","turnId":${turn},"delta":"`;
    this.sortedClosing = `","turnId":${turn},"type":"${type}"}`;
    this.head = `data: {"type":"${kind}-delta","id":${JSON.stringify(partId)},"delta":"`;
  }

  /** The event of `frame` when it is a non-empty delta of this shape, else undefined. */
  eventOf(frame: string): string | undefined {
    let start: number;
    let end: number;
    if (frame.startsWith(this.typeFirst)) {
      if (!frame.endsWith('"}')) return undefined;
      start = this.typeFirst.length;
      end = frame.length - 2;
    } else if (frame.startsWith(SORTED_OPENING) && frame.endsWith(this.sortedClosing)) {
      start = SORTED_OPENING.length;
      end = frame.length - this.sortedClosing.length;
    } else {
      return undefined;
    }
    if (end <= start) return undefined;
    const delta = frame.slice(start, end);
    return PLAIN.test(delta) ? this.head + delta + '"}\n\n' : undefined;
  }
}

const SORTED_OPENING = '{"delta":"';
/** A string JSON writes as it is: no quote, backslash or control character. */
const PLAIN = /^[^"\\\u0000-\u001f]*$/;

export class Translator {
  private phase: "waiting" | "open" | "ended" = "waiting";
  private turnId: string | undefined;
  private open: { kind: "text" | "reasoning"; id: string } | undefined;
  private shape: DeltaShape | undefined;
  private opened = 0;
  private textParts = 0;
  /** Insertion order is first-appearance order: the end closes calls in that order. */
  private calls = new Map<string, Call>();
  /** Tool calls shown, and how many ended in `tool-output-error` (the finish metadata). */
  private toolCalls = 0;
  private toolErrors = 0;
  /** What the finalize reported the turn cost, for the finish metadata. */
  private usage: Usage | undefined;
  private model: string | undefined;
  private startedMs = 0;

  /** `clock`: ms since the epoch, for the metadata (the worker's `Date.now`); `questions`: what
   * the agent's questions become. */
  constructor(
    private readonly requestId: string | undefined,
    private readonly clock: () => number = Date.now,
    private readonly questions: QuestionParts = "tools",
  ) {}

  /** The open part's [`DeltaShape`], while a delta of our turn would extend it. */
  streamingShape(): DeltaShape | undefined {
    const open = this.open;
    if (this.phase !== "open" || open === undefined || this.turnId === undefined) return undefined;
    if (this.shape?.partId !== open.id) this.shape = new DeltaShape(open.kind, this.turnId, open.id);
    return this.shape;
  }

  get ended(): boolean {
    return this.phase === "ended";
  }

  /** Consumes one frame, appending the chunks it causes to `out`. */
  push(frame: Frame, out: UIChunk[]): void {
    if (this.phase === "ended") return;
    if (this.phase === "waiting") {
      if (frame.type === "message.create") this.maybeStart(frame, out);
      else if (frame.type === "error") this.endWith(errorEnding(frame), out);
      return;
    }
    switch (frame.type) {
      case "message.part.text-delta":
        if (frame.turnId === this.turnId) this.delta("text", frame.delta, out);
        return;
      case "message.part.reasoning-delta":
        if (frame.turnId === this.turnId) this.delta("reasoning", frame.delta, out);
        return;
      case "chunk":
        this.delta("text", frame.content, out);
        return;
      case "message.part.tool-update":
        if (frame.turnId !== this.turnId) return;
        if (this.toolWouldEmit(frame)) this.closePart(out);
        this.applyTool(frame, out);
        return;
      case "agentStatus": {
        const chunk = statusChunk(frame.status, frame.detail);
        if (chunk) out.push(chunk);
        return;
      }
      case "question":
        // The turn waits for the user: the stream ends here, the answer's request goes on.
        this.closePart(out);
        this.ask(frame, out);
        this.endWith({ kind: "awaiting-answer" }, out);
        return;
      case "message.finalize": {
        if (frame.turnId !== this.turnId) return;
        this.usage = readUsage(frame.usage);
        this.model = readModel(frame.model);
        if (frame.finalText !== undefined && this.textParts === 0) this.delta("text", frame.finalText, out);
        let ending: Ending;
        if (frame.reason === "error") ending = { kind: "error", text: errorText(frame.error) ?? AGENT_ERROR };
        else if (frame.reason === "canceled") ending = { kind: "abort" };
        else ending = { kind: "finish" }; // end_turn, and any reason this adapter does not know
        this.endWith(ending, out);
        return;
      }
      case "complete":
        this.endWith({ kind: "finish" }, out);
        return;
      case "error":
        this.endWith(errorEnding(frame), out);
        return;
      default:
        return; // another turn's create, init, message, status, domain events
    }
  }

  /** Ends the stream for a cause outside the protocol. Does nothing once it has ended. */
  end(cause: EndCause, out: UIChunk[]): void {
    this.endWith(cause === "client-gone" ? { kind: "abort" } : { kind: "error", text: CONNECTION_LOST }, out);
  }

  private maybeStart(create: Extract<Frame, { type: "message.create" }>, out: UIChunk[]): void {
    const ours =
      create.requestId !== undefined && this.requestId !== undefined
        ? create.requestId === this.requestId
        : create.channelType === undefined || create.channelType === "web";
    if (!ours) return;
    this.startedMs = this.clock();
    out.push(
      { type: "start", messageId: create.turnId, messageMetadata: { turnId: create.turnId, createdAt: this.startedMs } },
      { type: "start-step" },
    );
    this.turnId = create.turnId;
    this.phase = "open";
  }

  /** A question, as the client asked for it: a gated call (`toolCallId` naming an open call of
   * the turn) is approved on its own part, or through `approveToolCall`; any other question is
   * `askUser`; or a `data-question` either way. */
  private ask(q: Extract<Frame, { type: "question" }>, out: UIChunk[]): void {
    const gated = q.toolCallId === undefined ? undefined : this.calls.get(q.toolCallId);
    const call = gated !== undefined && gated.stage !== Stage.Done ? gated : undefined;
    if (this.questions === "data") {
      const data: QuestionData = { questionId: q.questionId, text: q.text };
      if (q.options !== undefined) data.options = q.options;
      if (q.toolCallId !== undefined) data.toolCallId = q.toolCallId;
      if (q.answer !== undefined) data.answer = q.answer;
      out.push({ type: "data-question", id: q.questionId, data });
      return;
    }
    if (call !== undefined && this.questions === "approvals") {
      if (call.stage === Stage.InputStarted) out.push(inputAvailable(q.toolCallId!, call));
      // The approval is the call's: no error ends it, the answer's stream goes on with it.
      call.stage = Stage.Done;
      out.push({ type: "tool-approval-request", approvalId: q.questionId, toolCallId: q.toolCallId! });
      return;
    }
    const [toolName, input]: [string, Json] = call !== undefined
      ? ["approveToolCall", { questionId: q.questionId, text: q.text, toolCallId: q.toolCallId!, toolName: call.name, input: call.args ?? {} }]
      : ["askUser", { questionId: q.questionId, text: q.text, ...(q.options !== undefined ? { options: q.options } : {}) }];
    out.push(
      { type: "tool-input-start", toolCallId: q.questionId, toolName, providerExecuted: false, dynamic: false },
      { type: "tool-input-available", toolCallId: q.questionId, toolName, input, providerExecuted: false, dynamic: false },
    );
  }

  private delta(kind: "text" | "reasoning", delta: string, out: UIChunk[]): void {
    if (delta === "") return;
    let id: string;
    if (this.open !== undefined && this.open.kind === kind) {
      id = this.open.id;
    } else {
      this.closePart(out);
      this.opened += 1;
      id = `${kind}-${this.opened}`;
      if (kind === "text") this.textParts += 1;
      out.push({ type: kind === "text" ? "text-start" : "reasoning-start", id });
      this.open = { kind, id };
    }
    out.push({ type: kind === "text" ? "text-delta" : "reasoning-delta", id, delta });
  }

  private closePart(out: UIChunk[]): void {
    if (this.open === undefined) return;
    out.push({ type: this.open.kind === "text" ? "text-end" : "reasoning-end", id: this.open.id });
    this.open = undefined;
  }

  private toolWouldEmit(u: Extract<Frame, { type: "message.part.tool-update" }>): boolean {
    const call = this.calls.get(u.callId);
    if (call === undefined) return true;
    if (call.stage === Stage.Done) return false;
    if (u.status === "completed" || u.status === "error") return true;
    if (call.stage === Stage.InputStarted && u.status === "running") return u.args !== undefined || call.args !== undefined;
    return false;
  }

  private applyTool(u: Extract<Frame, { type: "message.part.tool-update" }>, out: UIChunk[]): void {
    let call = this.calls.get(u.callId);
    if (call === undefined) {
      out.push({ type: "tool-input-start", toolCallId: u.callId, toolName: u.toolName, providerExecuted: true, dynamic: true });
      call = { name: u.toolName, args: undefined, stage: Stage.InputStarted };
      this.calls.set(u.callId, call);
      this.toolCalls += 1;
    }
    if (u.args !== undefined) call.args = u.args;
    if (call.stage === Stage.Done) return;
    const wantsInput = u.status === "pending" ? false : u.status === "running" ? call.args !== undefined : true;
    if (wantsInput && call.stage < Stage.InputAvailable) {
      call.stage = Stage.InputAvailable;
      out.push(inputAvailable(u.callId, call));
    }
    if (u.status === "pending" || u.status === "running") return;
    call.stage = Stage.Done;
    if (u.status === "completed") {
      const failure = failureText(u.result);
      if (failure === undefined) {
        out.push({ type: "tool-output-available", toolCallId: u.callId, output: u.result ?? null, providerExecuted: true, dynamic: true });
      } else {
        this.toolErrors += 1;
        out.push(outputError(u.callId, failure));
      }
    } else {
      this.toolErrors += 1;
      out.push(outputError(u.callId, errorText(u.error) ?? failureText(u.result) ?? DEFAULT_TOOL_ERROR));
    }
  }

  private endWith(ending: Ending, out: UIChunk[]): void {
    if (this.phase === "ended") return;
    let finish: UIChunk = { type: "finish" };
    if (this.phase === "open") {
      this.closePart(out);
      const reason = ending.kind === "abort" ? "Canceled" : ending.kind === "awaiting-answer" ? "Waiting for your answer" : "Interrupted";
      for (const [id, call] of this.calls) {
        if (call.stage === Stage.Done) continue;
        if (call.stage === Stage.InputStarted) out.push(inputAvailable(id, call));
        call.stage = Stage.Done;
        this.toolErrors += 1;
        out.push(outputError(id, reason));
      }
      out.push({ type: "finish-step" });
      const messageMetadata: FinishMetadata = {
        turnId: this.turnId!,
        durationMs: Math.max(0, this.clock() - this.startedMs),
        toolCalls: this.toolCalls,
        toolErrors: this.toolErrors,
      };
      if (this.usage) messageMetadata.usage = this.usage;
      if (this.model !== undefined) messageMetadata.model = this.model;
      finish = { type: "finish", messageMetadata };
    }
    if (ending.kind === "error") out.push({ type: "error", errorText: ending.text }, finish);
    else if (ending.kind === "abort") {
      // A stopped turn's metadata rides a message-metadata chunk: abort has no place for it.
      if (finish.type === "finish" && finish.messageMetadata) out.push({ type: "message-metadata", messageMetadata: { ...finish.messageMetadata, stopped: true } });
      out.push({ type: "abort" });
    }
    else out.push(finish);
    this.phase = "ended";
  }
}

function errorEnding(frame: Extract<Frame, { type: "error" }>): Ending {
  return { kind: "error", text: errorText(frame.message) ?? errorText(frame.error) ?? AGENT_ERROR };
}

function inputAvailable(toolCallId: string, call: Call): UIChunk {
  return { type: "tool-input-available", toolCallId, toolName: call.name, input: call.args ?? {}, providerExecuted: true, dynamic: true };
}

function outputError(toolCallId: string, errorText: string): UIChunk {
  return { type: "tool-output-error", toolCallId, errorText, providerExecuted: true, dynamic: true };
}
