// check-agent's scenario of protocol 4 (docs/agent-protocol.md, "Taking messages back"): one
// session's conversation built by prompts that name their message (`messageId`) and the branch
// it follows (`branch`), as the adapter sends them for a stock AI SDK client. The checker keeps
// the client's side of the conversation, cut by the contract's rule ([`kept`]), and compares it
// after each step with the `init` of a new socket: the user messages under the client's ids
// (R-message-id); a regenerate, a fork and an edit of the first message taking back exactly what
// follows their attach point (R-branch); a prompt refused `busy` taking nothing back
// (R-branch-busy); a branch of which the agent has no message taking nothing back
// (R-branch-unknown); with --seen-prompt, the model given the conversation without what was taken
// back (R-branch-model). User ids are R-message-id's alone: the other comparisons look at the
// roles and the turns' ids. After the restart, what was taken back must not be back
// (restart.mjs).
import { endOn } from "./turn_end.mjs";
import { created } from "./turns.mjs";
import { finalizeOf, LONGER, show, WAIT } from "./frames.mjs";

/** The session's label. */
export const SESSION = "branch";
/** The rules of protocol 4, the first protocol in which an agent takes messages back. */
const RULES = ["R-message-id", "R-branch", "R-branch-unknown", "R-branch-busy", "R-branch-model"];
/** The check's own message ids (a client's are any strings). */
const ID = { u1: "check-u1", u2: "check-u2", f1: "check-f1", l1: "check-l1", x1: "check-x1", s1: "check-s1" };

/**
 * The contract's rule: how many of `stored` (ids, oldest first) stay for a prompt whose message
 * is `messageId` after `branch`. A stored `messageId` is replaced (it and all after it go); else
 * the newest stored id of `branch` is followed; else all stay.
 */
export function kept(stored, messageId, branch) {
  const at = new Map(stored.map((id, i) => [id, i]));
  if (at.has(messageId)) return at.get(messageId);
  for (const id of [...branch].reverse()) if (at.has(id)) return at.get(id) + 1;
  return stored.length;
}

/** The user messages and finished assistant messages of a socket's `init`, as `{ id, role }`
 * (undefined without an init). */
export const messagesOf = (conn) =>
  conn.init?.messages
    ?.filter((m) => m?.role === "user" || m?.parts?.some((p) => p?.type === "finish"))
    .map((m) => ({ id: m.id, role: m.role }));

/** What R-branch compares: the roles, and the turns' ids (user ids are R-message-id's). */
const shapeOf = (messages) => messages.map((m) => (m.role === "user" ? "user" : m.id));

export async function branches(ctx) {
  const first = await ctx.join(SESSION);
  first.close();
  const protocol = first.init?.protocol;
  if (!(Number.isInteger(protocol) && protocol >= 4)) {
    const arrived = first.init
      ? `the agent says protocol ${show(protocol)} in init: it takes nothing back (the adapter refuses a regenerate or an edit for it)`
      : "no init: the agent says no protocol (R-init)";
    for (const id of RULES) ctx.judge(id, "n/a", { arrived });
    return;
  }
  const a = await ctx.join(SESSION);
  try {
    await drive(ctx, a);
  } finally {
    a.close();
  }
}

async function drive(ctx, a) {
  /** The client's conversation, `{ id, role }` oldest first, and every id it ever held. */
  const model = [];
  const ever = new Set();
  const ids = () => model.map((m) => m.id);

  /** A turn for a prompt of `content` with `messageId` after `branch`, once it ended: its turnId
   * and text (null: no turn). The client's conversation is cut by the rule, then grows by it. */
  const step = async (messageId, branch, content = ctx.prompts.short) => {
    const from = a.frames.length;
    ctx.prompt(a, content, `${messageId}-${from}`, { messageId, branch });
    const create = await created(ctx, a, from, `a --prompt with messageId ${messageId}`);
    if (!create) return null;
    ctx.saw(SESSION, create.turnId);
    const start = a.frames.indexOf(create);
    const done = await endOn(a, create.turnId, WAIT.turn, start);
    await a.waitFor((f) => f.type === "complete", WAIT.settle, a.frames.indexOf(done));
    model.splice(kept(ids(), messageId, branch));
    model.push({ id: messageId, role: "user" }, { id: create.turnId, role: "assistant" });
    for (const id of ids()) ever.add(id);
    // Its text whatever turnId the deltas carry (R-turn-id's to judge).
    const upTo = done ? a.frames.indexOf(done) : a.frames.length;
    const text = a.frames.slice(start, upTo).filter((f) => f.type === "message.part.text-delta").map((f) => f.delta).join("");
    return { turnId: create.turnId, text };
  };
  /** The conversation a new socket's init holds. */
  const stored = async () => {
    const b = await ctx.join(SESSION);
    b.close();
    return messagesOf(b) ?? [];
  };
  /** Judges `rule`: a new socket's init holds the client's conversation. On a difference the
   * client's side takes the agent's, so that a later step is judged on its own. */
  const judge = async (rule, what) => {
    const seen = await stored();
    const same = JSON.stringify(shapeOf(seen)) === JSON.stringify(shapeOf(model));
    ctx.judge(rule, same ? "pass" : "fail", {
      arrived: `${what}: a new socket's init holds ${show(shapeOf(seen))}, the client's conversation is ${show(shapeOf(model))}`,
    });
    if (!same) model.splice(0, model.length, ...seen);
  };

  const t1 = await step(ID.u1, ids());
  const t2 = t1 && (await step(ID.u2, ids()));
  if (!t2) return skipAll(ctx, "the turns that build the conversation did not start (R-turn)");
  const users = (await stored()).filter((m) => m.role === "user").map((m) => m.id);
  ctx.judge("R-message-id", JSON.stringify(users) === JSON.stringify([ID.u1, ID.u2]) ? "pass" : "fail", {
    arrived: `after prompts with messageId ${ID.u1} and ${ID.u2}, a new socket's init holds user messages ${show(users)}`,
  });

  // A regenerate of the last reply: the same user message again, after what came before it.
  if (!(await step(ID.u2, [ID.u1, t1.turnId]))) return;
  await judge("R-branch", `a regenerate (messageId ${ID.u2} again, after ${t1.turnId})`);
  // A fork: a new message after the first reply.
  if (!(await step(ID.f1, [ID.u1, t1.turnId]))) return;
  await judge("R-branch", `a fork (messageId ${ID.f1} after ${t1.turnId})`);
  if (!(await busyTakesNothing(ctx, a, model, ids, judge))) return;
  // An edit of the first message: it and everything after it are replaced.
  const firstUser = model.find((m) => m.role === "user")?.id ?? ID.u1;
  if (!(await step(firstUser, []))) return;
  await judge("R-branch", `an edit of the first message (messageId ${firstUser}, branch [])`);
  // A branch of which the agent has no message: appended.
  if (!(await step(ID.x1, ["check-nobody-1", "check-nobody-2"]))) return;
  await judge("R-branch-unknown", "a prompt after a branch of ids the agent never had");
  ctx.takenBack = [...ever].filter((id) => !ids().includes(id));

  if (!ctx.prompts.seen) {
    return ctx.judge("R-branch-model", "skip", { arrived: "no prompt that says what the model is given", give: "--seen-prompt" });
  }
  const current = ids();
  const gone = [...ever].filter((id) => !current.includes(id));
  const seen = await step(ID.s1, current, ctx.prompts.seen);
  if (!seen) return ctx.judge("R-branch-model", "skip", { arrived: "the --seen-prompt started no turn (R-turn)" });
  const missing = current.filter((id) => !seen.text.includes(id));
  const stale = gone.filter((id) => seen.text.includes(id));
  ctx.judge("R-branch-model", missing.length || stale.length ? "fail" : "pass", {
    arrived: `the --seen-prompt's reply ${stale.length ? `names messages taken back: ${show(stale)}` : `lacks ${show(missing)}`} (${show(seen.text)})`,
  });
}

/** R-branch-busy: during a long turn, a prompt that would replace the first user message (and so
 * take everything back) gets `busy`, and takes nothing back. False when the long turn did not
 * start. A turn too short to be busy during is no finding; its prompt's turn then counts as the
 * client's. */
async function busyTakesNothing(ctx, a, model, ids, judge) {
  const from = a.frames.length;
  const branch = ids();
  ctx.prompt(a, ctx.prompts.long, "check-long", { messageId: ID.l1, branch });
  const create = await created(ctx, a, from, "the --long-prompt with a messageId");
  if (!create) {
    ctx.judge("R-branch-busy", "skip", { arrived: "the long turn did not start (R-turn)" });
    return false;
  }
  ctx.saw(SESSION, create.turnId);
  const b = await ctx.join(SESSION);
  const mark = b.frames.length;
  const target = model.find((m) => m.role === "user")?.id ?? ID.u1;
  ctx.prompt(b, ctx.prompts.short, "check-busy", { messageId: target, branch: [] });
  const answer = await b.waitFor((f) => f.type === "error" || (f.type === "message.create" && f.turnId !== create.turnId), WAIT.reply, mark);
  a.send({ type: "abort", requestId: "check-long" });
  const end = await endOn(a, create.turnId, WAIT.turn, a.frames.indexOf(create));
  await a.waitFor((f) => f.type === "complete", WAIT.settle, end ? a.frames.indexOf(end) : a.frames.length);
  model.splice(kept(ids(), ID.l1, branch));
  model.push({ id: ID.l1, role: "user" }, { id: create.turnId, role: "assistant" });
  if (answer?.type === "message.create") {
    // A turn for the prompt: the long one ended before it came, or the agent started a second
    // turn during it (R-one-turn's to judge). The client's side takes the agent's.
    ctx.saw(SESSION, answer.turnId);
    await endOn(b, answer.turnId, WAIT.turn, b.frames.indexOf(answer));
    await b.waitFor((f) => f.type === "complete", WAIT.settle, b.frames.length - 1);
    b.close();
    const agents = await ctx.join(SESSION);
    agents.close();
    model.splice(0, model.length, ...(messagesOf(agents) ?? []));
    ctx.judge("R-branch-busy", "skip", { arrived: "the prompt sent during the --long-prompt's turn started a turn of its own", give: LONGER });
    return true;
  }
  b.close();
  // Refused (busy), or left unanswered (R-busy's to judge): either way it started no turn, and
  // must have taken nothing back.
  await judge("R-branch-busy", "a prompt replacing the first message (branch []), sent during a turn and starting none, then the turn aborted");
  return true;
}

function skipAll(ctx, arrived) {
  for (const id of RULES) ctx.judge(id, "skip", { arrived });
}
