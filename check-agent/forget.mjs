// check-agent's forget scenario (docs/agent-protocol.md, "`forget`", protocol 7): a user deleted
// the conversation, and the adapter sends `forget` on a socket of its own. In one session of its
// own, for an agent that says protocol 7 or later in its `init` and on its upgrade's answer (the
// adapter sends no other a `forget`: a delete is 409 agent_cannot_forget):
//
// - a turn (the --seen-prompt, else the --prompt: the fastest turns the checker has), then a
//   `forget` with no requestId, which must be ignored (R-tolerant);
// - a --long-prompt from a second socket, and during it, from a third, the `forget`. R-forget: the
//   asking socket gets `forgotten` with its requestId within FORGET_WAIT_MS, after the turn's end
//   when it sees it; the turn in flight ends `canceled`, as an abort ends it (its one finalize,
//   tools and `complete`: ./turn_end.mjs); R-forget-notify: both other sockets (the idle one and
//   the one whose turn ran) get `forgotten` with the requestId before the turn's finalize;
// - a new socket: `init` lists no message; a second `forget` (nothing kept) is answered all the
//   same; a `history` frame for a ref from before is `not_found`; a prompt (the --seen-prompt, else
//   the --prompt) starts a conversation from nothing: a turnId and refs never given before, its
//   user message first (`parent` null), its model given nothing from before (the --seen-prompt's
//   reply); a later socket's `init` holds nothing from before;
// - after ./restart.mjs's restart (`afterRestart`), a new socket's `init` and a `history` frame for
//   a ref from before still find nothing from before.
import { askHistory, initMessages, names } from "./history.mjs";
import { judgeTurn } from "./turn_end.mjs";
import { created, turnOn } from "./turns.mjs";
import { finalizeOf, LONGER, show, WAIT } from "./frames.mjs";

/** The rules of protocol 7. */
export const PROTOCOL_7_RULES = ["R-forget", "R-forget-notify"];

/** How long a `forget` may wait for its `forgotten`: the adapter's own wait (docs/agent-protocol.md,
 * "What the adapter enforces": 10 s). */
export const FORGET_WAIT_MS = 10_000;

const SESSION = "forget";
/** The client's ids of the scenario's user messages. */
const ID = { u1: "check-f-1", u2: "check-f-2", u3: "check-f-3" };

/** The protocol a socket's agent says, the lower of its `init`'s and its upgrade's answer's (the
 * adapter needs both to send a `forget`); NaN when either says none. */
function protocolOf(conn) {
  const header = conn.protocolHeader === null ? NaN : Number(conn.protocolHeader.trim());
  return Math.min(typeof conn.init?.protocol === "number" ? conn.init.protocol : NaN, header);
}

/** Everything of the session before the forget, as keys a later listing must not hold: the ids
 * and refs of the messages `conn`'s init lists, and those of `message.create`s. */
class Before {
  constructor() {
    this.keys = new Set();
    this.turnIds = new Set();
    /** The refs, in the order they were seen (the conversation's first message's first). */
    this.refs = [];
  }

  list(messages) {
    for (const m of messages) {
      for (const key of [m.id, m.ref]) if (typeof key === "string") this.keys.add(key);
      if (typeof m.ref === "string" && !this.refs.includes(m.ref)) this.refs.push(m.ref);
    }
  }

  create(create) {
    if (typeof create.turnId === "string") (this.keys.add(create.turnId), this.turnIds.add(create.turnId));
    if (create.message && typeof create.message === "object") this.list([create.message]);
  }

  /** The messages of `messages` from before the forget. */
  kept(messages) {
    return messages.filter((m) => this.keys.has(m.id) || this.keys.has(m.ref));
  }
}

/** A list of messages as a report line shows it. */
const listing = (messages) => show(messages.map((m) => m.ref ?? m.id));

export async function forgets(ctx) {
  const w = await ctx.join(SESSION);
  const conns = [w];
  try {
    const protocol = protocolOf(w);
    if (!(protocol >= 7)) {
      const said = `the agent says protocol ${show(w.init?.protocol)} in init, ${w.protocolHeader === null ? "no X-Agent-Protocol" : `X-Agent-Protocol: ${w.protocolHeader}`} on the upgrade's answer`;
      const arrived = `${said}: the adapter sends it no forget (a delete is 409 agent_cannot_forget)`;
      for (const id of PROTOCOL_7_RULES) ctx.judge(id, "n/a", { arrived });
      return;
    }
    const skip = (arrived, give) => {
      for (const id of PROTOCOL_7_RULES) ctx.judge(id, "skip", { arrived, ...(give ? { give } : {}) });
    };
    const before = new Before();
    const quick = ctx.prompts.seen ?? ctx.prompts.short;
    const what = ctx.prompts.seen ? "the --seen-prompt" : "the --prompt";
    const t1 = await turnOn(ctx, w, SESSION, quick, "check-f1", { messageId: ID.u1, branch: [] }, what);
    if (!t1) return skip("no turn started (R-turn)");
    before.create(t1.create);
    // A forget that could not say which request it answers is ignored.
    const bare = w.frames.length;
    w.send({ type: "forget" });

    const a = await ctx.join(SESSION);
    conns.push(a);
    const from = a.frames.length;
    ctx.prompt(a, ctx.prompts.long, "check-f2", { messageId: ID.u2, branch: [ID.u1, t1.create.turnId] });
    const create = await created(ctx, a, from, "the --long-prompt");
    if (!create) return skip("the --long-prompt started no turn (R-turn)");
    const turnId = create.turnId;
    ctx.saw(SESSION, turnId);
    before.create(create);
    const f = await ctx.join(SESSION);
    conns.push(f);
    before.list(initMessages(f.init));
    if (f.init && !initMessages(f.init).some((m) => m.id === t1.create.turnId)) {
      ctx.judge("R-tolerant", "fail", { arrived: `a forget without requestId was not ignored: a later socket's init lacks ${t1.create.turnId} (${initMessages(f.init).length} message(s))` });
    }
    const stray = w.since(bare, (x) => x.type === "forgotten")[0];
    if (stray) ctx.judge("R-tolerant", "fail", { arrived: `a forget without requestId was answered: ${show(stray)}` });
    if (a.frames.some(finalizeOf(turnId))) return skip("the --long-prompt's turn ended before the forget was sent", LONGER);

    const requestId = "check-forget-1";
    const marks = new Map([w, a, f].map((c) => [c, c.frames.length]));
    const sentAt = Date.now();
    f.send({ type: "forget", requestId });
    const answer = await f.waitFor((x) => x.type === "error" || (x.type === "forgotten" && x.requestId === requestId), FORGET_WAIT_MS, marks.get(f));
    const answered = answer?.type === "forgotten";
    if (!answered) {
      const arrived = answer ? `answered ${show(answer)}` : f.closed ? `the socket closed (${f.closed.code})` : `no forgotten with its requestId within ${FORGET_WAIT_MS / 1000} s`;
      ctx.judge("R-forget", "fail", { arrived: `a forget sent during a turn: ${arrived}` });
    }
    // The turn in flight ends as an abort ends it.
    const end = await a.waitFor((x) => finalizeOf(turnId)(x) || x.type === "complete", WAIT.reply, a.frames.indexOf(create));
    if (!end) {
      ctx.judge("R-forget", "fail", { arrived: `the turn ${turnId} in flight went on: no message.finalize within ${WAIT.reply / 1000} s of a forget${answered ? `, answered forgotten ${f.arrival(answer) - sentAt} ms after it` : ""}` });
      a.send({ type: "abort" });
    }
    await judgeTurn(ctx, a, create, "a turn ended by a forget");
    judgeEnd(ctx, { a, f, turnId, requestId, answer: answered ? answer : null, sentAt });
    judgeNotify(ctx, { w, a, marks, turnId, requestId, anyAnswer: answered });
    if (!answered) return;

    await afterForget(ctx, before, conns);
  } finally {
    for (const conn of conns) conn.close();
  }
}

/** R-forget: the turn in flight ended `canceled`, and the asking socket's answer came after its
 * end (it answers once nothing is kept). A turn that ended some other way before the agent read
 * the forget (its `forgotten` to the turn's socket, or its answer, not yet sent) is a skip. */
function judgeEnd(ctx, { a, f, turnId, requestId, answer, sentAt }) {
  const fin = a.frames.find(finalizeOf(turnId));
  if (!fin) {
    const complete = a.since(a.joined).some((x) => x.type === "complete");
    if (complete) ctx.judge("R-forget", "skip", { arrived: `the turn ${turnId} a forget ended came with complete and no message.finalize (R-finalize)` });
    return;
  }
  if (fin.reason !== "canceled") {
    const told = a.frames.find((x) => x.type === "forgotten" && x.requestId === requestId);
    const heard = told ? a.frames.indexOf(told) < a.frames.indexOf(fin) : answer !== null && f.arrival(answer) < a.arrival(fin);
    if (!heard && a.arrival(fin) - sentAt < WAIT.late) {
      return ctx.judge("R-forget", "skip", { arrived: `the turn ended ${show(fin.reason)} ${Math.max(a.arrival(fin) - sentAt, 0)} ms after the forget was sent, too soon to tell whether it heard it`, give: LONGER });
    }
    return ctx.judge("R-forget", "fail", { arrived: `the turn ${turnId} in flight at a forget ended ${show(fin.reason)} ${a.arrival(fin) - sentAt} ms after it, not "canceled"` });
  }
  if (!answer) return;
  // The asking socket hears the turn too (R-broadcast): its answer comes after the turn's end.
  const seen = f.frames.find(finalizeOf(turnId));
  if (seen && f.frames.indexOf(seen) > f.frames.indexOf(answer)) {
    ctx.judge("R-forget", "fail", { arrived: `the asking socket got forgotten before the message.finalize of ${turnId}: the agent answered before it ended the turn in flight` });
  }
}

/** R-forget-notify: every other socket of the session (`w`, idle; `a`, whose turn ran) got
 * `forgotten` with the forget's requestId, before the turn's finalize (or its `complete`, when no
 * finalize came). Skipped when nothing of the forget arrived anywhere (R-forget's failure). */
function judgeNotify(ctx, { w, a, marks, turnId, requestId, anyAnswer }) {
  const sockets = [[w, "the idle socket"], [a, "the socket whose turn was in flight"]];
  const told = (c) => c.since(marks.get(c), (x) => x.type === "forgotten")[0];
  if (!anyAnswer && !sockets.some(([c]) => told(c))) {
    return ctx.judge("R-forget-notify", "skip", { arrived: "the agent did not forget (R-forget)" });
  }
  for (const [c, who] of sockets) {
    const notice = told(c);
    if (!notice) return ctx.judge("R-forget-notify", "fail", { arrived: `${who} of the session got no forgotten (only the asking socket did)` });
    if (notice.requestId !== requestId) return ctx.judge("R-forget-notify", "fail", { arrived: `${who} got ${show(notice)}, not the forget's requestId ${show(requestId)}` });
    const end = c.since(marks.get(c)).find((x) => finalizeOf(turnId)(x)) ?? c.since(marks.get(c)).find((x) => x.type === "complete");
    if (end && c.frames.indexOf(end) < c.frames.indexOf(notice)) {
      return ctx.judge("R-forget-notify", "fail", { arrived: `${who} got forgotten after the turn's ${end.type}: its stream ended as a stopped turn` });
    }
  }
  ctx.judge("R-forget-notify", "pass");
}

/** After the forget: a new socket lists nothing; a forget again is answered; a ref from before is
 * `not_found`; a prompt starts from nothing; a later socket lists nothing from before. What the
 * restart checks again is kept in `ctx.forgotten`. */
async function afterForget(ctx, before, conns) {
  const c = await ctx.join(SESSION);
  conns.push(c);
  // The conversation's first message (a user message: its ref is the agent's, not the client's id).
  const oldRef = before.refs[0] ?? [...before.turnIds][0];
  ctx.forgotten = { before, oldRef };
  if (!c.init) ctx.judge("R-forget", "skip", { arrived: "no init on a new socket after the forget (R-init)" });
  else {
    const messages = initMessages(c.init);
    if (messages.length) return ctx.judge("R-forget", "fail", { arrived: `after forgotten, a new socket's init lists ${messages.length} message(s): ${listing(messages)}` });
  }
  const mark = c.frames.length;
  c.send({ type: "forget", requestId: "check-forget-2" });
  const again = await c.waitFor((x) => x.type === "error" || (x.type === "forgotten" && x.requestId === "check-forget-2"), FORGET_WAIT_MS, mark);
  if (again?.type !== "forgotten") ctx.judge("R-forget", "fail", { arrived: `a forget with nothing kept: ${again ? `answered ${show(again)}` : `no forgotten within ${FORGET_WAIT_MS / 1000} s`}` });
  await judgeOldRef(ctx, c, before, oldRef, "after the forget");

  const quick = ctx.prompts.seen ?? ctx.prompts.short;
  const what = `${ctx.prompts.seen ? "the --seen-prompt" : "the --prompt"} after the forget`;
  const turn = await turnOn(ctx, c, SESSION, quick, "check-f3", { messageId: ID.u3, branch: [] }, what);
  if (!turn) return ctx.judge("R-forget", "skip", { arrived: `${what} started no turn (R-turn)` });
  const { create, text } = turn;
  if (before.turnIds.has(create.turnId)) return ctx.judge("R-forget", "fail", { arrived: `${what}: turnId ${show(create.turnId)} again, a turn's before the forget` });
  const message = create.message;
  if (message && typeof message === "object") {
    if (before.keys.has(message.ref)) return ctx.judge("R-forget", "fail", { arrived: `${what}: its user message's ref ${show(message.ref)} again, a message's before the forget` });
    if (message.parent !== null) return ctx.judge("R-forget", "fail", { arrived: `${what}: its user message follows ${show(message.parent)}, not nothing (parent null)` });
  }
  const recalled = [...before.keys].filter((key) => names(text, key));
  if (ctx.prompts.seen && recalled.length) return ctx.judge("R-forget", "fail", { arrived: `${what}: its model is given messages from before the forget, ${show(recalled)} (${show(text)})` });
  const d = await ctx.join(SESSION);
  conns.push(d);
  const kept = before.kept(initMessages(d.init));
  if (kept.length) return ctx.judge("R-forget", "fail", { arrived: `${what} and its turn: a new socket's init lists messages from before the forget, ${listing(kept)}` });
  ctx.judge("R-forget", "pass");
}

/** A `history` frame for `ref`, a message's from before the forget: `not_found` (R-forget: a page
 * with messages from before fails it; any other answer is R-history-request's). */
async function judgeOldRef(ctx, conn, before, ref, when) {
  const { answer, messages } = await askHistory(conn, { leaf: ref });
  const asked = `${when}, history {"leaf":${show(ref)}} (a ref from before the forget)`;
  if (answer?.type === "error") {
    ctx.judge("R-error-code", answer.code === "not_found" ? "pass" : "fail", { arrived: `${asked}: the refusal ${show(answer)}` });
    return;
  }
  const kept = before.kept(messages ?? []);
  if (kept.length) return ctx.judge("R-forget", "fail", { arrived: `${asked}: answered with ${kept.length} message(s) from before, ${listing(kept)}` });
  ctx.judge("R-history-request", "fail", { arrived: `${asked}: answered ${show(answer)}, not not_found` });
}

/** After ./restart.mjs restarted the agent's worker: a new socket's init, and a `history` frame
 * for a ref from before the forget, find nothing from before. */
export async function afterRestart(ctx) {
  if (!ctx.forgotten) return;
  const { before, oldRef } = ctx.forgotten;
  const e = await ctx.join(SESSION);
  try {
    if (!e.init) return ctx.judge("R-forget", "skip", { arrived: "no init after the restart (R-init)" });
    const kept = before.kept(initMessages(e.init));
    if (kept.length) return ctx.judge("R-forget", "fail", { arrived: `after a restart, a new socket's init lists messages from before the forget: ${listing(kept)}` });
    await judgeOldRef(ctx, e, before, oldRef, "after a restart");
  } finally {
    e.close();
  }
}
