// The SessionAgent Durable Object: one per chat session, as a class to extend. It keeps the
// contract of docs/agent-protocol.md (protocol 5) on the hibernatable WebSocket API; a subclass
// supplies the model only (`respond`, ./model.ts):
//
// - every socket gets `init` (the newest page of the current branch, the turn in flight at its end)
//   and every turn event; a `history` frame gets the page it asks for (./pages.ts);
// - one turn at a time (`busy` otherwise); `abort` stops it; a question pauses it until `answer`;
// - a question that gates a tool call (`toolCallId`) is an approval: a denied call is ended
//   `error` here, and never runs, whatever the model does next (R-approval);
// - what the model keeps across a question (its `memo`) is stored with the waiting turn, apart
//   from its message (no client reads it), and given back with the answer; it is written and
//   dropped in the same synchronous step as the message's own save, which storage commits as
//   one, so no memo outlives its waiting turn;
// - a prompt or answer whose `onDisconnect` is `abort` makes its socket the turn's owner: that
//   socket closing before the turn ends stops the turn (R-close-abort);
// - every message is kept, as a tree (protocol 5, ./tree.ts): a prompt says where its turn goes
//   (`messageId`, `branch`), and what the turn does not follow stays as another branch; the user
//   message, the reply's first save and the check of the session's cap are one transaction; the
//   model is given exactly the turn's branch, from the conversation's first message to its user
//   message;
// - the tree lives in SQLite storage (./store.ts), so it survives hibernation and restarts;
// - the adapter's `ping` is answered `pong` by the runtime (its WebSocket auto-response), never by
//   this code: it costs the object no wake-up, and a hibernated session stays hibernated (R-pong).
//
// A running turn keeps the object awake (its model's timers or I/O); a turn waiting on a question
// does not, so its state is saved in storage and rebuilt from there after a wake (`current()`).

import { DurableObject } from "cloudflare:workers";
import type { Emit, ModelInput, ModelResult } from "./model.js";
import { listed, listPage, sameContent, withoutRefs } from "./pages.js";
import { dataNameFault, RESERVED_METADATA_KEYS } from "./protocol.js";
import { frames, newId, parseIncoming, PING, PONG, PROTOCOL, PROTOCOL_HEADER, readApproval, type FinishReason, type Incoming, type Message, type Outgoing, type Part, type Question, type Usage } from "./protocol.js";
import { TreeStore } from "./store.js";
import { attach, MAX_SESSION_MESSAGES, roomFor, siblingKeys, type Place } from "./tree.js";

/** What survives hibernation per socket (`serializeAttachment`). */
interface SocketState {
  id: string;
}

/** A turn in flight (exported for the tests' fault-injecting subclass). */
export interface Turn {
  /** The assistant message so far; its id is the `turnId`. */
  message: Message;
  requestId?: string;
  /** The socket whose closing stops the turn; `null` when none does (detached, or waiting). */
  owner: string | null;
  controller: AbortController;
  /** The question the turn waits on. */
  question?: Question;
  /** Calls the user denied: the model's later updates to them are dropped. */
  denied?: Set<string>;
}

const INTERRUPTED = "The agent restarted during this turn.";
/** What a prompt past the session's cap gets (code `session_full`, docs/agent-protocol.md). */
const FULL = `This conversation is full (${MAX_SESSION_MESSAGES.toLocaleString("en-US")} messages): start a new one.`;

type Prompt = Extract<Incoming, { type: "prompt" }>;

export abstract class SessionAgent<Env = unknown> extends DurableObject<Env> {
  private store: TreeStore;
  private turn: Turn | null = null;
  private minimal: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new TreeStore(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
    this.minimal = this.keepsOnlyTheMusts();
    this.answerPings();
    this.recoverInterrupted();
  }

  /** Has the runtime answer the adapter's ping with the pong, on every socket, without waking the
   * object (R-pong). Protected, and run from the constructor, for the tests' faults (an agent
   * that answers no ping). */
  protected answerPings(): void {
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** The model: one turn, from its input to its result (./model.ts says what each may do). */
  protected abstract respond(input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult>;

  /**
   * Whether the agent keeps only the MUSTs of the contract (no `requestId` echo, no turn in flight
   * in `init`, errors without `code`, no protocol said, its own ids for user messages, every turn
   * appended, no branches, pages or refs: an agent of protocol 3 or older), to see how an adapter
   * degrades. No agent in production wants it: false.
   */
  protected keepsOnlyTheMusts(): boolean {
    return false;
  }

  /** A turn that was running when the object stopped cannot go on (a waiting one can): it is
   * stored finished with an error. Protected, and run from the constructor, for the tests' faults. */
  protected recoverInterrupted(): void {
    const dead = this.store.unfinished();
    if (dead && !pendingQuestion(dead)) {
      dead.parts.push({ type: "error", message: INTERRUPTED }, { type: "finish", reason: "error" });
      this.store.save(dead, true);
    }
  }

  /** The adapter's upgrade: accept the socket (hibernatable), send it `init`. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "expected a WebSocket upgrade" }, { status: 426 });
    }
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ id: crypto.randomUUID() } satisfies SocketState);
    const messages = this.initMessages();
    // `protocol` promises the turn in flight is listed whenever one runs (the minimal mode leaves
    // it out, so it says nothing).
    this.reply(server, this.minimal ? { type: "init", messages } : { type: "init", protocol: PROTOCOL, messages });
    const headers = this.minimal ? undefined : { [PROTOCOL_HEADER]: String(PROTOCOL) };
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    if (typeof data !== "string") return;
    const frame = parseIncoming(data);
    if (!frame) return;
    try {
      this.handle(ws, frame);
    } catch (err) {
      // Storage failed (a message too large for a row, a full disk): the frame is refused, nothing
      // half-written (the prompt's writes are one transaction), and the socket stays open.
      const error = err instanceof Error ? err.message : String(err);
      console.error(JSON.stringify({ event: "session_agent.frame_failed", frame: frame.type, error }));
      this.reply(ws, frames.error(`The agent could not do this: ${error}`));
    }
  }

  /** What `init` lists: the newest page of the current branch, with the turn in flight as it is now
   * (R-current, R-init-bounds, R-init-in-flight). The minimal mode lists finished messages only,
   * without the tree's fields. */
  private initMessages(): Message[] {
    const messages = listPage(this.store, {}, undefined, this.minimal ? undefined : this.current()?.message) ?? [];
    return this.minimal ? messages.filter((m) => m.role === "user" || m.parts.some((p) => p.type === "finish")).map(withoutRefs) : messages;
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Close our side too (1005 and 1006 cannot be sent back).
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    this.lost(ws);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    this.lost(ws);
  }

  protected handle(ws: WebSocket, frame: Incoming): void {
    const turn = this.current();
    switch (frame.type) {
      case "prompt":
        if (turn) return this.reply(ws, this.error("The agent is busy with another turn.", "busy"));
        return this.start(ws, frame);
      case "abort":
        if (turn && (frame.requestId === undefined || frame.requestId === turn.requestId)) this.finish(turn, "canceled");
        return;
      case "answer":
        if (!turn?.question || turn.question.questionId !== frame.questionId) {
          return this.reply(ws, this.error("There is no pending question with that id.", "question_not_pending"));
        }
        return this.resume(ws, turn, frame.answer, frame.onDisconnect);
      case "history":
        // An agent of protocol 3 knows no such frame, and ignores it.
        if (!this.minimal) this.sendPage(ws, frame);
        return;
    }
  }

  /** Answers a `history` frame on its socket: the page it asks for, or `not_found` (R-history-request);
   * never `busy`. */
  private sendPage(ws: WebSocket, frame: Extract<Incoming, { type: "history" }>): void {
    const want = frame.before !== undefined ? { before: frame.before } : frame.leaf !== undefined ? { leaf: frame.leaf } : {};
    const messages = listPage(this.store, want, frame.limit, this.current()?.message);
    if (!messages) return this.reply(ws, { ...this.error("No message of this session has that ref.", "not_found"), ...(frame.requestId !== undefined ? { requestId: frame.requestId } : {}) });
    this.reply(ws, frames.history(frame.requestId, messages));
  }

  /** The running turn, or the one waiting on a question (rebuilt from storage after a wake).
   * Protected for the tests' faults. */
  protected current(): Turn | null {
    if (!this.turn) {
      const waiting = this.store.unfinished();
      const question = waiting && pendingQuestion(waiting);
      if (waiting && question) this.turn = { message: waiting, owner: null, controller: new AbortController(), question };
    }
    return this.turn;
  }

  private start(ws: WebSocket, prompt: Prompt): void {
    const createdAt = new Date().toISOString();
    const message: Message = { id: this.newTurnId(), role: "assistant", parts: [], createdAt };
    const user = this.storeTurn(prompt, message);
    if (user === null) return this.reply(ws, this.error(FULL, "session_full"));
    const owner = prompt.onDisconnect === "abort" ? socketId(ws) : null;
    const turn: Turn = { message, requestId: prompt.requestId, owner, controller: new AbortController() };
    this.turn = turn;
    if (this.minimal) this.broadcast(frames.create(message.id));
    else {
      // The turn's user message as `init` lists it, and the reply's siblings (a regenerate's).
      const [listedUser] = listed(this.store, [this.store.node(user)!]);
      const replies = siblingKeys(this.store.childKeys([user]).get(user) ?? []);
      this.broadcast(frames.create(message.id, prompt.requestId, listedUser, replies));
    }
    void this.run(turn, { history: this.store.branchTo(user), prompt: prompt.content, context: prompt.context });
  }

  /** Stores a prompt's turn where the tree's rules put it (R-attach), all or nothing: its user
   * message when it is a new one (under the client's `messageId`, R-message-id), then `reply`, the
   * turn's message; or nothing when the session is full. Returns the user message's ref (null:
   * full). An agent of protocol 3 (the minimal mode) knows neither field: its ids are its own,
   * and it appends every turn. */
  private storeTurn(prompt: Prompt, reply: Message): string | null {
    const files: Part[] = (prompt.attachments ?? []).map((a) => ({ type: "file", ...a }));
    const parts: Part[] = [{ type: "text", text: prompt.content }, ...files];
    const place: Place = this.minimal ? {} : { messageId: prompt.messageId, branch: prompt.branch };
    return this.store.transaction(() => {
      const attached = attach(this.store, place, (node) => sameContent(this.store.bodies([node.key]).get(node.key)?.parts, parts));
      if (!roomFor(this.store.count(), attached)) return null;
      let user: string;
      if (attached.existing) user = attached.existing.key;
      else {
        user = newId("u_");
        const id = (this.minimal ? undefined : prompt.messageId) ?? newId("user_");
        this.store.insert(user, attached.parent, { id, role: "user", parts, createdAt: reply.createdAt }, true);
      }
      this.store.insert(reply.id, user, reply, false);
      return user;
    });
  }

  /** A new turn's id, unique for good (R-turn-id). Protected for the tests' faults. */
  protected newTurnId(): string {
    return newId("msg_");
  }

  private resume(ws: WebSocket, turn: Turn, answer: unknown, policy?: string): void {
    const question = turn.question!;
    const { questionId, text } = question;
    const part = turn.message.parts.find((p) => p.type === "question" && p.questionId === questionId);
    if (part?.type === "question") part.answer = answer;
    turn.question = undefined;
    turn.owner = policy === "abort" ? socketId(ws) : null;
    const toolCall = question.toolCallId === undefined ? undefined : openCall(turn.message, question.toolCallId);
    // A toolCallId that names no open call makes it a free question (docs/agent-protocol.md).
    const approval = toolCall ? readApproval(answer, question.options) : undefined;
    if (toolCall && approval?.approved === false) this.deny(turn, toolCall, approval.reason);
    this.store.save(turn.message, false);
    const gated = toolCall ? { toolCall, approval } : {};
    const memo = this.store.memo(turn.message.id);
    this.store.dropMemos();
    const kept = memo === undefined ? {} : { memo };
    // The turn's branch, to its user message (the message the waiting reply follows).
    const user = this.store.node(turn.message.id)?.parent;
    const history = user ? this.store.branchTo(user) : [];
    void this.run(turn, { history, prompt: "", answer: { questionId, text, answer, ...gated, ...kept } });
  }

  /** Ends a call the user denied (`error`, with the reason when one came) and keeps it ended. */
  private deny(turn: Turn, call: { callId: string; toolName: string }, reason?: string): void {
    const error = reason ? `Denied: ${reason}` : "Denied";
    this.emitter(turn).tool({ callId: call.callId, toolName: call.toolName, status: "error", error });
    (turn.denied ??= new Set()).add(call.callId);
  }

  /** Runs the model for `turn` to its end, its question, its error or its abort. */
  private async run(turn: Turn, input: ModelInput): Promise<void> {
    try {
      const result = await this.respond(input, this.emitter(turn), turn.controller.signal);
      if (this.turn !== turn) return;
      if (result.done) return this.finish(turn, "end_turn", undefined, result);
      this.ask(turn, result.question, result.memo);
    } catch (err) {
      if (this.turn === turn) this.finish(turn, "error", err instanceof Error ? err.message : String(err));
    }
  }

  /** Pauses `turn` on a question: stored with the model's memo (a waiting object may hibernate),
   * then sent. */
  private ask(turn: Turn, asked: Omit<Question, "questionId">, memo: unknown): void {
    const { text, toolCallId, options } = asked;
    // A fresh random id: unlike every other question's and every callId of the turn (R-question-id).
    const question: Question = { questionId: newId("q_"), text, ...(toolCallId ? { toolCallId } : {}), ...(options ? { options } : {}) };
    turn.message.parts.push({ type: "question", ...question });
    turn.question = question;
    turn.owner = null; // the prompt's stream ends here; nobody owns a waiting turn
    if (memo !== undefined) this.store.saveMemo(turn.message.id, memo);
    this.store.save(turn.message, false);
    this.broadcast({ type: "question", ...question });
  }

  /** Streams the model's events: each is applied to the message and sent to every socket. */
  private emitter(turn: Turn): Emit {
    const live = () => this.turn === turn && !turn.controller.signal.aborted;
    const delta = (type: "text" | "reasoning", text: string) => {
      const last = turn.message.parts.at(-1);
      if (last?.type === type) last.text += text;
      else turn.message.parts.push({ type, text });
      this.broadcast(type === "text" ? frames.text(turn.message.id, text) : frames.reasoning(turn.message.id, text));
    };
    return {
      text: (d) => live() && delta("text", d),
      reasoning: (d) => live() && delta("reasoning", d),
      status: (status, detail) => live() && this.broadcast(frames.status(status, detail)),
      tool: (update) => {
        if (!live() || turn.denied?.has(update.callId)) return;
        const part = turn.message.parts.find((p) => p.type === "tool-call" && p.callId === update.callId);
        if (part) Object.assign(part, update);
        else turn.message.parts.push({ type: "tool-call", ...update });
        this.broadcast({ type: "message.part.tool-update", turnId: turn.message.id, ...update });
      },
      // Protocol 6: a transient data part is only sent; one of a stored name and id replaces it.
      data: (name, data, { id, transient } = {}) => {
        const fault = dataNameFault(name);
        if (fault) throw new TypeError(fault);
        if (!live()) return;
        const kept = id === undefined ? undefined : turn.message.parts.find((p) => p.type === "data" && p.name === name && p.id === id);
        if (transient) {
          // sent only
        } else if (kept && kept.type === "data") kept.data = data ?? null;
        else turn.message.parts.push({ type: "data", name, ...(id !== undefined ? { id } : {}), data: data ?? null });
        this.broadcast(frames.data(turn.message.id, name, data, id, transient));
      },
      source: (source) => {
        if (!live()) return;
        turn.message.parts.push({ type: "source", ...source });
        this.broadcast(frames.source(turn.message.id, source));
      },
      metadata: (metadata) => {
        const taken = RESERVED_METADATA_KEYS.find((key) => Object.hasOwn(metadata, key));
        if (taken) throw new TypeError(`metadata names ${JSON.stringify(taken)}, a key the adapter writes`);
        if (!live()) return;
        turn.message.parts.push({ type: "metadata", metadata });
        this.broadcast(frames.metadata(turn.message.id, metadata));
      },
    };
  }

  /** Ends `turn`: open tools closed, the finalize, idle, `complete`; the message stored. */
  private finish(turn: Turn, reason: "end_turn" | "error" | "canceled", error?: string, cost?: { usage?: Usage; model?: string }): void {
    turn.controller.abort();
    this.turn = null;
    const id = turn.message.id;
    this.closeOpenTools(turn, reason);
    if (error) turn.message.parts.push({ type: "error", message: error });
    // What the turn cost stays with the message, so a reloaded reply shows it as the live one did.
    turn.message.parts.push({ type: "finish", reason, ...(cost?.usage && { usage: cost.usage }), ...(cost?.model && { model: cost.model }) });
    turn.message.completedAt = new Date().toISOString();
    this.store.save(turn.message, true);
    this.store.dropMemos();
    this.broadcast(frames.finalize(id, reason, error, cost));
    this.broadcast(frames.status(reason === "error" ? "error" : "idle"));
    this.broadcast(frames.complete());
  }

  /** Brings the tools `turn` leaves open to `error` (R-tool-end). Protected for the tests' faults. */
  protected closeOpenTools(turn: Turn, reason: FinishReason): void {
    for (const part of turn.message.parts) {
      if (part.type === "tool-call" && (part.status === "pending" || part.status === "running")) {
        Object.assign(part, { status: "error", error: reason === "canceled" ? "Canceled" : "Failed" });
        this.broadcast({ type: "message.part.tool-update", turnId: turn.message.id, callId: part.callId, toolName: part.toolName, status: "error", error: part.error });
      }
    }
  }

  /** A socket closed or failed: if it owns the turn, the turn stops (R-close-abort). Protected for
   * the tests' faults. */
  protected lost(ws: WebSocket): void {
    const turn = this.turn;
    if (turn && turn.owner !== null && turn.owner === socketId(ws)) this.finish(turn, "canceled");
  }

  private error(message: string, code: string): Outgoing {
    return frames.error(message, this.minimal ? undefined : code);
  }

  /** Sends `frame` to every socket of the session (R-broadcast). */
  protected broadcast(frame: Outgoing): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // closing: its close event comes
      }
    }
  }

  /** Sends `frame` to one socket. */
  protected reply(ws: WebSocket, frame: Outgoing): void {
    try {
      ws.send(JSON.stringify(frame));
    } catch {
      // closing: its close event comes
    }
  }
}

function socketId(ws: WebSocket): string | null {
  return (ws.deserializeAttachment() as SocketState | null)?.id ?? null;
}

/** The unanswered question of an unfinished message, if it waits on one. */
function pendingQuestion(message: Message): Question | undefined {
  const last = message.parts.at(-1);
  if (last?.type !== "question" || last.answer !== undefined) return undefined;
  const { type: _, answer: __, ...question } = last;
  return question;
}

/** The call `callId` of `message` if it is still open (`pending` or `running`): the one an
 * approval question gates. */
function openCall(message: Message, callId: string): { callId: string; toolName: string; args?: unknown } | undefined {
  const part = message.parts.find((p) => p.type === "tool-call" && p.callId === callId);
  if (part?.type !== "tool-call" || (part.status !== "pending" && part.status !== "running")) return undefined;
  return { callId: part.callId, toolName: part.toolName, args: part.args };
}
