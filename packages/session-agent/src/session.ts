// The machinery of a SessionAgent Durable Object (internal: package.json's `exports` does not
// expose it; ./session-agent.ts is the public class, and builds one `Session` on its first call).
// It keeps the contract of docs/agent-protocol.md (protocol 7) on the hibernatable WebSocket API,
// for a model given as a function (`respond`, ./model.ts):
//
// - every socket gets `init` (the newest page of the current branch, the turn in flight at its end)
//   and every turn event; a `history` frame gets the page it asks for (./pages.ts);
// - one turn at a time (`busy` otherwise); `abort` stops it; a question pauses it until `answer`;
// - a question that gates a tool call (`toolCallId`) is an approval: a denied call is ended
//   `error` here, and never runs, whatever the model does next (R-approval);
// - what the model keeps across a question (its `memo`) is stored with the waiting turn, apart
//   from its message (no client reads it), and given back with the answer; it is written and
//   dropped in one transaction with the message's own save, so no memo outlives its waiting turn;
// - a prompt or answer whose `onDisconnect` is `abort` makes its socket the turn's owner: that
//   socket closing before the turn ends stops the turn (R-close-abort);
// - every message is kept, as a tree (protocol 5, ./tree.ts): a prompt says where its turn goes
//   (`messageId`, `branch`), and what the turn does not follow stays as another branch; the user
//   message, the reply's first save and the check of the session's cap are one transaction; the
//   model is given exactly the turn's branch, from the conversation's first message to its user
//   message;
// - one message is stored in one row of at most MAX_ROW_BYTES (./rows.ts): a user message over it
//   is refused in words (`message_too_large`) and nothing is stored; a reply over it is stored
//   shortened, with a mark;
// - a write that fails ends what it touches in words, and what was stored before stays: a prompt
//   or an answer gets `error`; a turn's last save failing still ends the turn (`message.finalize`
//   `error`, then `complete`);
// - a `forget` (protocol 7) deletes all of the object's storage, the object being the session: every
//   other socket hears `forgotten` first, the turn in flight ends as an `abort` ends it, then the
//   asking socket gets `forgotten` once nothing is kept (or `forget_failed` when storage fails); the
//   store makes its tables again, empty, on its next use;
// - the adapter's `ping` is answered `pong` by the runtime (its WebSocket auto-response), never by
//   this code: it costs the object no wake-up, and a hibernated session stays hibernated (R-pong).
//   It is set on the first call of each instance (a socket exists only after a `fetch`, and a wake
//   is a call).
//
// A running turn keeps the object awake (its model's timers or I/O); a turn waiting on a question
// does not, so its state is saved in storage and rebuilt from there after a wake (`current()`).
//
// The protected methods are the tests' hooks (tests/fixtures/agents/recording.ts breaks one rule of
// the contract per fault through them); nothing of them is public API.

import type { Emit, ModelInput, ModelResult, Respond } from "./model.js";
import { listed, listPage, sameContent, withoutRefs } from "./pages.js";
import { dataNameFault, RESERVED_METADATA_KEYS, titleFault } from "./protocol.js";
import { FORGET, frames, newId, parseIncoming, PING, PONG, PROTOCOL, PROTOCOL_HEADER, readApproval, type FinishReason, type Incoming, type Message, type Outgoing, type Part, type Question, type Usage } from "./protocol.js";
import { fitted, jsonSize, MAX_ROW_BYTES, sizeInWords } from "./rows.js";
import { TreeStore } from "./store.js";
import { attach, MAX_SESSION_MESSAGES, roomFor, siblingKeys, type Place } from "./tree.js";

/** The key of the method a SessionAgent subclass may define to build its own `Session` (the tests'
 * fault-injecting one, the reference agent's minimal mode): not exported by the package. */
export const ENGINE: unique symbol = Symbol("session-agent.engine");

/** What survives hibernation per socket (`serializeAttachment`). */
interface SocketState {
  id: string;
}

/** A turn in flight. */
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

export interface SessionOptions {
  /**
   * Whether the agent keeps only the MUSTs of the contract (no `requestId` echo, no turn in flight
   * in `init`, errors without `code`, no protocol said, its own ids for user messages, every turn
   * appended, no branches, pages or refs: an agent of protocol 3 or older), to see how an adapter
   * degrades. No agent in production wants it.
   */
  minimal?: boolean;
  /** The store of the session's messages (the tests' store that fails on purpose). */
  store?: (ctx: DurableObjectState) => TreeStore;
}

const INTERRUPTED = "The agent restarted during this turn.";
/** What a prompt past the session's cap gets (code `session_full`, docs/agent-protocol.md). */
const FULL = `This conversation is full (${MAX_SESSION_MESSAGES.toLocaleString("en-US")} messages): start a new one.`;
/** What a prompt whose user message is over MAX_ROW_BYTES gets (code `message_too_large`). */
const TOO_LARGE = (bytes: number) =>
  `This message is too large to keep (${sizeInWords(bytes, "up")}; at most ${sizeInWords(MAX_ROW_BYTES, "down")} with its files): send a smaller file or a shorter text.`;

type Prompt = Extract<Incoming, { type: "prompt" }>;

/** A failure's words. */
const said = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Session {
  protected readonly store: TreeStore;
  protected readonly minimal: boolean;
  private turn: Turn | null = null;
  private opened = false;

  constructor(
    protected readonly ctx: DurableObjectState,
    private readonly respond: Respond,
    options: SessionOptions = {},
  ) {
    this.store = options.store?.(ctx) ?? new TreeStore(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
    this.minimal = options.minimal ?? false;
  }

  /** Once per instance, before its first call does anything: the ping's auto-response, and the
   * turn a restart interrupted. Tried again on the next call if storage failed. */
  private open(): void {
    if (this.opened) return;
    this.answerPings();
    try {
      this.recoverInterrupted();
      this.opened = true;
    } catch (err) {
      console.error(JSON.stringify({ event: "session_agent.recover_failed", error: said(err) }));
    }
  }

  /** Has the runtime answer the adapter's ping with the pong, on every socket, without waking the
   * object (R-pong). */
  protected answerPings(): void {
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** A turn that was running when the object stopped cannot go on (a waiting one can): it is
   * stored finished with an error. */
  protected recoverInterrupted(): void {
    const dead = this.store.unfinished();
    if (dead && !pendingQuestion(dead)) {
      dead.parts.push({ type: "error", message: INTERRUPTED }, { type: "finish", reason: "error" });
      this.store.save(fitted(dead), true);
    }
  }

  /** The adapter's upgrade: accept the socket (hibernatable), send it `init`. */
  async fetch(request: Request): Promise<Response> {
    this.open();
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
    this.open();
    if (typeof data !== "string") return;
    const frame = parseIncoming(data);
    if (!frame) return;
    // A forget waits on storage (deleting everything is asynchronous), so it is none of `handle`'s
    // frames, which are answered at once; an agent of protocol 3 (the minimal mode) knows no such
    // frame, and ignores it.
    if (frame.type === FORGET) return this.minimal ? undefined : this.forget(ws, frame.requestId);
    try {
      this.handle(ws, frame);
    } catch (err) {
      // Storage failed (a full disk, a row the database refuses): the frame is refused, nothing
      // half-written (each frame's writes are one transaction), and the socket stays open.
      console.error(JSON.stringify({ event: "session_agent.frame_failed", frame: frame.type, error: said(err) }));
      this.reply(ws, frames.error(`The agent could not do this: ${said(err)}`));
    }
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.open();
    // Close our side too (1005 and 1006 cannot be sent back).
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    this.lost(ws);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    this.open();
    this.lost(ws);
  }

  /** What `init` lists: the newest page of the current branch, with the turn in flight as it is now
   * (R-current, R-init-bounds, R-init-in-flight). The minimal mode lists finished messages only,
   * without the tree's fields. */
  private initMessages(): Message[] {
    const messages = listPage(this.store, {}, undefined, this.minimal ? undefined : this.live()) ?? [];
    return this.minimal ? messages.filter((m) => m.role === "user" || m.parts.some((p) => p.type === "finish")).map(withoutRefs) : messages;
  }

  /** The turn in flight as a page lists it: as it would be stored (within MAX_ROW_BYTES). */
  private live(): Message | undefined {
    const message = this.current()?.message;
    return message && fitted(message);
  }

  protected handle(ws: WebSocket, frame: Incoming): void {
    const turn = this.current();
    switch (frame.type) {
      case "prompt":
        if (turn) return this.reply(ws, this.refusal("The agent is busy with another turn.", "busy"));
        return this.start(ws, frame);
      case "abort":
        if (turn && (frame.requestId === undefined || frame.requestId === turn.requestId)) this.finish(turn, "canceled");
        return;
      case "answer":
        if (!turn?.question || turn.question.questionId !== frame.questionId) {
          return this.reply(ws, this.refusal("There is no pending question with that id.", "question_not_pending"));
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
    const messages = listPage(this.store, want, frame.limit, this.live());
    if (!messages) return this.reply(ws, { ...this.refusal("No message of this session has that ref.", "not_found"), ...(frame.requestId !== undefined ? { requestId: frame.requestId } : {}) });
    this.reply(ws, frames.history(frame.requestId, messages));
  }

  /**
   * Forgets the session (protocol 7, R-forget). The object is the session, so all of its storage is
   * deleted: the tree, the memos, and whatever a subclass stored beside them. In order:
   * `forgotten` to every other socket (R-forget-notify: a stream or a feed on it ends there), the
   * turn in flight ended as an `abort` ends it (`message.finalize` `canceled`, its open tools
   * ended), the storage deleted, and only then `forgotten` on the asking socket, which the adapter
   * reads as "nothing is kept". A storage failure is answered there in words (`forget_failed`):
   * the adapter then keeps the conversation, and may ask again.
   */
  protected async forget(ws: WebSocket, requestId: string): Promise<void> {
    const forgotten = frames.forgotten(requestId);
    this.toOthers(ws, forgotten);
    try {
      const turn = this.current();
      if (turn) this.finish(turn, "canceled");
      await this.ctx.storage.deleteAll();
    } catch (err) {
      console.error(JSON.stringify({ event: "session_agent.forget_failed", error: said(err) }));
      return this.reply(ws, { ...this.refusal(`The agent could not forget this conversation: ${said(err)}`, "forget_failed"), requestId });
    } finally {
      // Deleted wholly or in part, the tables are looked for again on the next use (and made empty).
      this.store.tablesDropped();
    }
    this.reply(ws, forgotten);
  }

  /** Sends `frame` to every socket of the session but `ws`. One by one through `reply`, not
   * `broadcast`: a `broadcast` that a subclass reshapes must never reach `ws` with it. */
  private toOthers(ws: WebSocket, frame: Outgoing): void {
    const own = socketId(ws);
    for (const other of this.ctx.getWebSockets()) {
      if (other !== ws && (own === null || socketId(other) !== own)) this.reply(other, frame);
    }
  }

  /** The running turn, or the one waiting on a question (rebuilt from storage after a wake). */
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
    const stored = this.storeTurn(prompt, message);
    if ("refused" in stored) return this.reply(ws, stored.refused);
    const { user } = stored;
    const owner = prompt.onDisconnect === "abort" ? socketId(ws) : null;
    const turn: Turn = { message, requestId: prompt.requestId, owner, controller: new AbortController() };
    this.turn = turn;
    let created = false;
    let history: Message[];
    try {
      if (this.minimal) this.broadcast(frames.create(message.id));
      else {
        // The turn's user message as `init` lists it, and the reply's siblings (a regenerate's).
        const [listedUser] = listed(this.store, [this.store.node(user)!]);
        const replies = siblingKeys(this.store.childKeys([user]).get(user) ?? []);
        this.broadcast(frames.create(message.id, prompt.requestId, listedUser, replies));
      }
      created = true;
      history = this.store.branchTo(user);
    } catch (err) {
      // Stored, but not read back: the turn ends at once, in words.
      if (!created) this.broadcast(frames.create(message.id, this.minimal ? undefined : prompt.requestId));
      return this.finish(turn, "error", `The agent could not read this conversation: ${said(err)}`);
    }
    void this.run(turn, { history, prompt: prompt.content, context: prompt.context });
  }

  /** Stores a prompt's turn where the tree's rules put it (R-attach), all or nothing: its user
   * message when it is a new one (under the client's `messageId`, R-message-id), then `reply`, the
   * turn's message. Returns the user message's ref; or, with nothing stored, the refusal of a
   * full session (`session_full`) or of a user message over MAX_ROW_BYTES (`message_too_large`).
   * An agent of protocol 3 (the minimal mode) knows neither field: its ids are its own, and it
   * appends every turn. */
  private storeTurn(prompt: Prompt, reply: Message): { user: string } | { refused: Outgoing } {
    const files: Part[] = (prompt.attachments ?? []).map((a) => ({ type: "file", ...a }));
    const parts: Part[] = [{ type: "text", text: prompt.content }, ...files];
    const place: Place = this.minimal ? {} : { messageId: prompt.messageId, branch: prompt.branch };
    return this.store.transaction(() => {
      const attached = attach(this.store, place, (node) => sameContent(this.store.bodies([node.key]).get(node.key)?.parts, parts));
      if (!roomFor(this.store.count(), attached)) return { refused: this.refusal(FULL, "session_full") };
      let user: string;
      if (attached.existing) user = attached.existing.key;
      else {
        const id = (this.minimal ? undefined : prompt.messageId) ?? newId("user_");
        const message: Message = { id, role: "user", parts, createdAt: reply.createdAt };
        const bytes = jsonSize(message);
        if (bytes > MAX_ROW_BYTES) return { refused: this.refusal(TOO_LARGE(bytes), "message_too_large") };
        user = newId("u_");
        this.store.insert(user, attached.parent, message, true);
      }
      this.store.insert(reply.id, user, reply, false);
      return { user };
    });
  }

  /** A new turn's id, unique for good (R-turn-id). */
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
    let memo: unknown;
    let history: Message[];
    try {
      memo = this.store.memo(turn.message.id);
      this.store.transaction(() => {
        this.store.save(fitted(turn.message), false);
        this.store.dropMemos();
      });
      // The turn's branch, to its user message (the message the waiting reply follows).
      const user = this.store.node(turn.message.id)?.parent;
      history = user ? this.store.branchTo(user) : [];
    } catch (err) {
      // The turn no longer waits, and cannot run: it ends, in words.
      console.error(JSON.stringify({ event: "session_agent.save_failed", at: "answer", error: said(err) }));
      return this.finish(turn, "error", `The agent could not store the answer: ${said(err)}`);
    }
    const gated = toolCall ? { toolCall, approval } : {};
    const kept = memo === undefined ? {} : { memo };
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
    let result: ModelResult;
    try {
      result = await this.respond(input, this.emitter(turn), turn.controller.signal);
    } catch (err) {
      if (this.turn === turn) this.finish(turn, "error", said(err));
      return;
    }
    if (this.turn !== turn) return;
    if (result.done) return this.finish(turn, "end_turn", undefined, result);
    this.ask(turn, result.question, result.memo);
  }

  /** Pauses `turn` on a question: stored with the model's memo in one transaction (a waiting
   * object may hibernate), then sent; a turn whose question cannot be stored ends in error. */
  private ask(turn: Turn, asked: Omit<Question, "questionId">, memo: unknown): void {
    const { text, toolCallId, options } = asked;
    // A fresh random id: unlike every other question's and every callId of the turn (R-question-id).
    const question: Question = { questionId: newId("q_"), text, ...(toolCallId ? { toolCallId } : {}), ...(options ? { options } : {}) };
    const part: Part = { type: "question", ...question };
    turn.message.parts.push(part);
    try {
      this.store.transaction(() => {
        if (memo !== undefined) this.store.saveMemo(turn.message.id, memo);
        this.store.save(fitted(turn.message), false);
      });
    } catch (err) {
      console.error(JSON.stringify({ event: "session_agent.save_failed", at: "question", error: said(err) }));
      turn.message.parts.splice(turn.message.parts.indexOf(part), 1);
      return this.finish(turn, "error", `The agent could not store its question: ${said(err)}`);
    }
    turn.question = question;
    turn.owner = null; // the prompt's stream ends here; nobody owns a waiting turn
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
      // Protocol 7: not the message's; the adapter writes it to the caller's list.
      title: (title) => {
        const fault = titleFault(title);
        if (fault) throw new TypeError(fault);
        if (live()) this.broadcast(frames.title(title.trim()));
      },
    };
  }

  /** Ends `turn`: open tools closed, the message stored (shortened to fit, ./rows.ts), then the
   * finalize, idle, `complete`. A save that fails still ends the turn, in error: what was stored
   * before stays, and the reply as it was last stored is stored ended when that can be. */
  private finish(turn: Turn, reason: FinishReason, error?: string, cost?: { usage?: Usage; model?: string }): void {
    turn.controller.abort();
    this.turn = null;
    const id = turn.message.id;
    this.closeOpenTools(turn, reason);
    const ended = (reason: FinishReason, error?: string): Message => ({
      ...turn.message,
      parts: [...turn.message.parts, ...(error ? [{ type: "error", message: error } as const] : []), { type: "finish", reason, ...(cost?.usage && { usage: cost.usage }), ...(cost?.model && { model: cost.model }) }],
      completedAt: new Date().toISOString(),
    });
    // What the turn cost stays with the message, so a reloaded reply shows it as the live one did.
    let message = ended(reason, error);
    try {
      this.store.transaction(() => {
        this.store.save(fitted(message), true);
        this.store.dropMemos();
      });
    } catch (err) {
      console.error(JSON.stringify({ event: "session_agent.save_failed", at: "finish", error: said(err) }));
      [reason, error] = ["error", `The agent could not store this reply: ${said(err)}`];
      // The reply as it was last stored (its start, or its question and answer), ended.
      message = { ...ended(reason, error), parts: [{ type: "error", message: error }, { type: "finish", reason }] };
      try {
        const stored = this.store.bodies([id]).get(id);
        if (stored) message = { ...message, parts: [...stored.parts, ...message.parts] };
        this.store.save(message, true);
      } catch (again) {
        // Left unfinished: the next start of the object ends it (recoverInterrupted).
        console.error(JSON.stringify({ event: "session_agent.save_failed", at: "finish_ending", error: said(again) }));
      }
    }
    turn.message = message;
    this.broadcast(frames.finalize(id, reason, error, reason === "error" ? undefined : cost));
    this.broadcast(frames.status(reason === "error" ? "error" : "idle"));
    this.broadcast(frames.complete());
  }

  /** Brings the tools `turn` leaves open to `error` (R-tool-end). */
  protected closeOpenTools(turn: Turn, reason: FinishReason): void {
    for (const part of turn.message.parts) {
      if (part.type === "tool-call" && (part.status === "pending" || part.status === "running")) {
        Object.assign(part, { status: "error", error: reason === "canceled" ? "Canceled" : "Failed" });
        this.broadcast({ type: "message.part.tool-update", turnId: turn.message.id, callId: part.callId, toolName: part.toolName, status: "error", error: part.error });
      }
    }
  }

  /** A socket closed or failed: if it owns the turn, the turn stops (R-close-abort). */
  protected lost(ws: WebSocket): void {
    const turn = this.turn;
    if (turn && turn.owner !== null && turn.owner === socketId(ws)) this.finish(turn, "canceled");
  }

  private refusal(message: string, code: string): Outgoing {
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
