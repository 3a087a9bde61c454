// check-agent's scenario of protocol 5 (docs/agent-protocol.md, "Branches"): one conversation built
// by two clients that send prompts as the adapter does for a stock AI SDK `Chat` (`messageId`,
// `branch`): A numbers its messages ("1", "2", …), B names its own. B loads the history, sends,
// regenerates, edits (the same id, other text), forks (assistant-ui's edit: a new id), sends again;
// A, stale, sends after the list it still holds; B, stale, regenerates; during a long turn a prompt
// is refused `busy`; A, on a new `Chat`, sends its "1" again; and the --seen-prompt. After each
// turn, a new socket reads the agent's tree (./crawl.mjs) and the checker judges:
//
// - R-attach: the turn's user message where check-agent's model of the contract puts it
//   (./tree_model.mjs, on what the agent stored before), its reply after it, nothing else stored;
// - R-message-id: a new user message under the prompt's messageId;
// - R-create-message: message.create's message as the agent then lists it (and the reply's
//   siblings: R-siblings);
// - R-branch-busy: the refused prompt stored nothing;
// - R-branch-model: the --seen-prompt's reply names its branch and nothing set aside;
// - what ./crawl.mjs judges (R-keep, R-ref, R-siblings, R-history-request, R-current,
//   R-init-bounds);
// then pages of two messages, a `before` page and an unknown ref (R-history-request, R-error-code,
// R-error-scope). What the agent stored stays in `ctx.branchTree` for ./restart.mjs (R-keep after a
// restart).
import { busyDuring, SESSION } from "./branch_session.mjs";
import { crawl, judgeTree, Known, listedWithId } from "./crawl.mjs";
import { askHistory, names, refsOf, textOf } from "./history.mjs";
import { branchThrough, expectedAttach, pathTo } from "./tree_model.mjs";
import { turnOn } from "./turns.mjs";
import { LONGER, show, sleep, WAIT } from "./frames.mjs";

/** A ref no agent made, for `not_found`. */
const NEVER_MADE = "check-never-made";

/** One client, as a stock `Chat` holds the conversation: its list (`{ id, role, text }`), its ids
 * numbered ("1", "2", …, from 1 again on a new `Chat`) or its own. */
class Client {
  constructor(name, numbered) {
    Object.assign(this, { name, numbered, list: [], next: 0 });
  }

  newId() {
    this.next += 1;
    return this.numbered ? String(this.next) : `check-${this.name}-${this.next}`;
  }

  /** The prompt for the list's last message (a user message), after the rest of the list. */
  prompt() {
    const user = this.list.at(-1);
    return { messageId: user.id, branch: this.list.slice(0, -1).map((m) => m.id), content: user.text };
  }

  send(text) {
    this.list.push({ id: this.newId(), role: "user", text });
    return this.prompt();
  }

  /** `regenerate()`: the list up to its last user message, sent again. */
  regenerate() {
    this.list.splice(this.list.findLastIndex((m) => m.role === "user") + 1);
    return this.prompt();
  }

  /** `sendMessage({ text, messageId })` of its last user message: the same id, other text. */
  edit(text) {
    const at = this.list.findLastIndex((m) => m.role === "user");
    this.list.splice(at + 1);
    this.list[at] = { ...this.list[at], text };
    return this.prompt();
  }

  /** assistant-ui's edit: the list cut before its last user message, a new one with a new id. */
  fork(text) {
    this.list.splice(this.list.findLastIndex((m) => m.role === "user"));
    return this.send(text);
  }

  got(turnId) {
    this.list.push({ id: turnId, role: "assistant" });
  }

  /** A reload: the history (the current branch, under the ids the clients sent). */
  reload(known) {
    const newest = known.newest();
    this.list = newest ? pathTo(known.tree, newest.ref).map(({ id, role, text }) => ({ id, role, text })) : [];
  }

  /** A new `Chat` on the session: nothing loaded, its numbering from 1 again. */
  fresh() {
    this.list = [];
    this.next = 0;
  }
}

export async function treeScenario(ctx) {
  // `held`: what the agent holds as far as the last reading tells (R-attach is judged on it, so that
  // an agent that lost messages, R-keep's, is not judged on them again).
  const s = { known: new Known(), held: [], a: await ctx.join(SESSION), n: 0 };
  const A = new Client("a", true);
  const B = new Client("b", false);
  const short = ctx.prompts.short;
  try {
    const steps = [
      [A, () => A.send(short), "A's first message (messageId 1)"],
      [B, () => (B.reload(s.known), B.send(short)), "B's send after it loaded the history"],
      [B, () => B.regenerate(), "B's regenerate"],
      [B, () => B.edit(`${short} (edited)`), "B's edit of its message (the same id, other text)"],
      [B, () => B.fork(short), "B's fork (its message cut, a new one with a new id)"],
      [B, () => B.send(short), "B's send after the fork"],
      [A, () => A.send(short), "A's stale send (after the two messages it holds)"],
      [B, () => B.regenerate(), "B's stale regenerate"],
    ];
    const done = [];
    for (const [client, prompt, what] of steps) {
      const turn = await step(ctx, s, client, prompt(), what);
      if (!turn) return skipRest(ctx, `${what} did not start a turn, or its reply cannot be read`);
      done.push(turn);
    }
    // For the small pages: B's first message (its branch goes on to its regenerated reply) and B's
    // reply that its stale regenerate set aside.
    s.aside = { leaf: done[1].user, before: listedRefOf(s.known, done[5].create.turnId) };
    if (!(await busyStep(ctx, s, B))) return;
    A.fresh();
    if (!(await step(ctx, s, A, A.send(`${short} (again)`), "A's first message on a new Chat (messageId 1 again, other text)"))) return;
    ctx.branchTree = s.known;
    await seenStep(ctx, s, A);
    await pages(ctx, s);
  } finally {
    s.a.close();
  }
}

/** The ref of the known reply `turnId`. */
const listedRefOf = (known, turnId) => known.tree.find((m) => m.role === "assistant" && m.id === turnId)?.ref;

/** One turn for `prompt` by `client`, then the tree read and judged; its result, or null. */
async function step(ctx, s, client, prompt, what) {
  const expected = expectedAttach(s.held, { messageId: prompt.messageId, branch: prompt.branch, text: prompt.content });
  const turn = await turnOn(ctx, s.a, SESSION, prompt.content, `check-t${++s.n}`, { messageId: prompt.messageId, branch: prompt.branch }, what);
  if (!turn) return null;
  client.got(turn.create.turnId);
  const found = await crawl(ctx, SESSION, s.known, [turn.create.turnId]);
  const user = learn(ctx, s.known, found, prompt, turn.create, expected, what);
  if (user === null) return null;
  const strays = adopt(s.known, found);
  if (strays.length) ctx.judge("R-attach", "fail", { arrived: `after ${what}: the agent stored more than the turn: ${show(strays.map((m) => m.id))}` });
  s.held = judgeTree(ctx, s.known, found, what);
  return { ...turn, user };
}

/** Where the turn `create` went, judged (R-attach, R-message-id, R-create-message) and learned;
 * its user message's ref, or null when its reply is nowhere to be read. */
function learn(ctx, known, found, prompt, create, expected, what) {
  const reply = listedWithId(found, create.turnId);
  if (!reply) {
    ctx.judge("R-keep", "fail", { arrived: `after ${what}: the turn's reply ${create.turnId} is neither in init nor in a history page` });
    return null;
  }
  const userRef = reply.parent ?? null;
  const user = found.listed.get(userRef);
  const isNew = !known.has(userRef);
  const wanted = expected.existing ? `a new reply to the stored user message ${show(expected.existing)}` : `a new user message after ${show(expected.parent)}`;
  const got = !user ? `a reply after ${show(userRef)}, which is not read` : isNew ? `a new ${user.role} message after ${show(user.parent ?? null)}` : `a new reply to the stored ${user.role} message ${show(userRef)}`;
  const attached = user?.role === "user" && (expected.existing ? userRef === expected.existing : isNew && (user.parent ?? null) === expected.parent);
  ctx.judge("R-attach", attached ? "pass" : "fail", { arrived: `${what} (messageId ${show(prompt.messageId)}, branch ${show(prompt.branch)}): ${got}, the contract's rule makes ${wanted}` });
  if (!user) return null;
  if (isNew) {
    ctx.judge("R-message-id", user.id === prompt.messageId ? "pass" : "fail", { arrived: `after ${what}: the new user message is listed as ${show(user.id)}, the prompt's messageId ${show(prompt.messageId)}` });
    known.add({ ref: userRef, id: prompt.messageId, role: "user", parent: user.parent ?? null, text: prompt.content });
  }
  known.add({ ref: reply.ref, id: create.turnId, role: "assistant", parent: userRef });
  judgeCreate(ctx, create, user, reply, what);
  return userRef;
}

/** R-create-message: message.create's message is the user message as it is listed; R-siblings: its
 * `siblings` are the reply's as it is listed. */
function judgeCreate(ctx, create, user, reply, what) {
  const seen = (m) => m && { id: m.id, ref: m.ref, parent: m.parent ?? null, role: m.role, siblings: m.siblings ?? [], text: textOf(m) };
  const same = JSON.stringify(seen(create.message)) === JSON.stringify(seen(user));
  ctx.judge("R-create-message", same ? "pass" : "fail", { arrived: `${what}: message.create carried ${show(seen(create.message))}; the user message is listed as ${show(seen(user))}` });
  const replies = (list) => (Array.isArray(list) ? list : []);
  if (JSON.stringify(replies(create.siblings)) !== JSON.stringify(replies(reply.siblings))) {
    ctx.judge("R-siblings", "fail", { arrived: `${what}: message.create of ${create.turnId} said siblings ${show(create.siblings)}, the reply is listed with ${show(reply.siblings)}` });
  }
}

/** Adds to `known` what `found` read that it did not know (parents first), as stored after all
 * it knew; returns those messages. */
function adopt(known, found) {
  const strays = [...found.listed.values()].filter((m) => !known.has(m.ref));
  for (let left = strays; left.length; ) {
    const ready = left.filter((m) => (m.parent ?? null) === null || known.has(m.parent) || !left.some((o) => o.ref === m.parent));
    for (const m of ready) known.add({ ref: m.ref, id: m.id, role: m.role, parent: m.parent ?? null, text: textOf(m) });
    left = left.filter((m) => !ready.includes(m));
  }
  return strays;
}

/** B's send of the --long-prompt; during it, a history frame (never busy: R-history-request) and
 * A's "1" on a new Chat (refused busy: R-branch-busy); then the turn aborted. */
async function busyStep(ctx, s, B) {
  const long = B.send(ctx.prompts.long);
  const expected = expectedAttach(s.held, { messageId: long.messageId, branch: long.branch, text: long.content });
  const busy = { messageId: "1", branch: [], content: `${ctx.prompts.short} (during a turn)` };
  const during = await busyDuring(ctx, s.a, long, busy, async (c, create) => {
    const { answer, messages } = await askHistory(c, {});
    const ok = messages?.at(-1)?.id === create.turnId;
    ctx.judge("R-history-request", ok ? "pass" : "fail", { arrived: `a history frame sent during a turn answered ${show(messages ? refsOf(messages) : answer)}, not the current branch to the turn in flight (${create.turnId})` });
  });
  if (!during) return false;
  B.got(during.create.turnId);
  const found = await crawl(ctx, SESSION, s.known, [during.create.turnId]);
  if (learn(ctx, s.known, found, long, during.create, expected, "B's --long-prompt, aborted") === null) return false;
  const strays = adopt(s.known, found);
  if (during.refused?.type === "message.create") ctx.judge("R-branch-busy", "skip", { arrived: "the prompt sent during the --long-prompt's turn started a turn of its own", give: LONGER });
  else {
    ctx.judge("R-branch-busy", strays.length ? "fail" : "pass", {
      arrived: `a prompt (messageId "1", branch []) refused during a turn stored ${show(strays.map((m) => ({ id: m.id, ref: m.ref, parent: m.parent })))}`,
    });
  }
  s.held = judgeTree(ctx, s.known, found, "a prompt refused during a turn");
  return true;
}

/** R-branch-model: the --seen-prompt's reply names every message of its branch and none that is
 * set aside (an id the branch holds too is not told apart). */
async function seenStep(ctx, s, A) {
  if (!ctx.prompts.seen) return ctx.judge("R-branch-model", "skip", { arrived: "no prompt that says what the model is given", give: "--seen-prompt" });
  const seen = await step(ctx, s, A, A.send(ctx.prompts.seen), "the --seen-prompt");
  if (!seen) return ctx.judge("R-branch-model", "skip", { arrived: "the --seen-prompt started no turn (R-turn)" });
  const branch = pathTo(s.known.tree, seen.user).map((m) => m.id);
  const aside = [...new Set(s.known.tree.map((m) => m.id))].filter((id) => !branch.includes(id) && id !== seen.create.turnId);
  const missing = branch.filter((id) => !names(seen.text, id));
  const stale = aside.filter((id) => names(seen.text, id));
  ctx.judge("R-branch-model", missing.length || stale.length ? "fail" : "pass", {
    arrived: `the --seen-prompt's reply ${stale.length ? `names messages set aside: ${show(stale)}` : `lacks ${show(missing)}`} (${show(seen.text)})`,
  });
}

/** R-history-request with small pages: the current branch two messages at a time, the branch
 * through a message set aside (to its newest descendant), the page before a reply set aside; an unknown ref `not_found` (R-error-code) on its
 * socket only (R-error-scope). */
async function pages(ctx, s) {
  const c = await ctx.join(SESSION);
  const d = await ctx.join(SESSION);
  try {
    const tree = s.held;
    const path = refsOf(pathTo(tree, s.known.newest().ref));
    const read = [];
    let before;
    let wrong = null;
    for (let i = 0; i <= path.length && wrong === null; i++) {
      const asked = before === undefined ? { limit: 2 } : { before, limit: 2 };
      const { answer, messages } = await askHistory(c, asked);
      if (!messages || messages.length > 2) wrong = `history ${show(asked)} answered ${show(messages ? refsOf(messages) : answer)}`;
      else {
        read.unshift(...refsOf(messages));
        if (messages.length === 0 || (messages[0].parent ?? null) === null) break;
        before = messages[0].ref;
      }
    }
    if (!wrong && JSON.stringify(read) !== JSON.stringify(path)) wrong = `the current branch read two messages a page is ${show(read)}, not ${show(path)}`;
    // (Of the messages the agent still holds: one that lost them fails R-keep.)
    const held = (ref) => tree.some((m) => m.ref === ref);
    if (!wrong && held(s.aside.leaf)) wrong = await pageOf(c, { leaf: s.aside.leaf, limit: 2 }, refsOf(branchThrough(tree, s.aside.leaf)).slice(-2));
    if (!wrong && held(s.aside.before)) wrong = await pageOf(c, { before: s.aside.before, limit: 2 }, refsOf(pathTo(tree, s.aside.before)).slice(-3, -1));
    ctx.judge("R-history-request", wrong ? "fail" : "pass", { arrived: wrong });
    const mark = d.frames.length;
    const { answer } = await askHistory(c, { leaf: NEVER_MADE });
    ctx.judge("R-history-request", answer?.type === "error" ? "pass" : "fail", { arrived: `history {"leaf":${show(NEVER_MADE)}}, a ref never made, answered ${show(answer)}` });
    if (answer?.type === "error") ctx.judge("R-error-code", answer.code === "not_found" ? "pass" : "fail", { arrived: `the refusal of an unknown ref ${show(answer)}` });
    await sleep(WAIT.settle);
    const leaked = d.since(mark, (f) => f.type === "error");
    if (leaked.length) ctx.judge("R-error-scope", "fail", { arrived: `the not_found of another socket's history frame arrived here too: ${show(leaked[0])}` });
  } finally {
    c.close();
    d.close();
  }
}

/** Where the page `asked` for differs from `expected` (refs), in words; null when it is that. */
async function pageOf(conn, asked, expected) {
  const { answer, messages } = await askHistory(conn, asked);
  const got = messages ? refsOf(messages) : null;
  return JSON.stringify(got) === JSON.stringify(expected) ? null : `history ${show(asked)} answered ${show(got ?? answer)}, not ${show(expected)}`;
}

function skipRest(ctx, arrived) {
  for (const id of ["R-keep", "R-attach", "R-current", "R-ref", "R-siblings", "R-history-request", "R-create-message", "R-message-id", "R-branch-busy", "R-branch-model"]) ctx.judge(id, "skip", { arrived });
}
