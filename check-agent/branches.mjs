// check-agent's branch scenarios (docs/agent-protocol.md, "Branches"): prompts that name their
// message (`messageId`) and the branch it follows (`branch`), as the adapter sends them for a stock
// AI SDK client. What an agent is judged on depends on the protocol its `init` says:
//
// - 5: the tree (./tree_scenario.mjs: R-keep, R-attach, R-current, R-ref, R-siblings,
//   R-history-request, R-create-message, and with the rules of protocol 4 below); the long session
//   (./bounds.mjs: R-init-bounds) comes after every scenario (./check.mjs), whose timings its load
//   would blur;
// - 4: an agent that deletes what a turn does not follow: the rules of protocol 5 are n/a (the
//   adapter refuses its stale sends, 409 stale_conversation); a conversation built by sends only,
//   which both protocols keep alike: the user messages under the client's ids (R-message-id), a
//   prompt refused `busy` that would replace the first message storing and taking nothing
//   (R-branch-busy), the --seen-prompt's model given the conversation (R-branch-model);
// - below 4 (or none): every branch rule is n/a.
import { busyDuring, SESSION } from "./branch_session.mjs";
import { treeScenario } from "./tree_scenario.mjs";
import { turnOn } from "./turns.mjs";
import { initMessages, names } from "./history.mjs";
import { LONGER, show } from "./frames.mjs";

export { SESSION };

/** The rules of protocol 4, which bind an agent of protocol 5 too. */
export const PROTOCOL_4_RULES = ["R-message-id", "R-branch-busy", "R-branch-model"];
/** The rules of protocol 5. */
export const PROTOCOL_5_RULES = ["R-keep", "R-attach", "R-current", "R-ref", "R-siblings", "R-history-request", "R-init-bounds", "R-create-message"];
/** The protocol-4 scenario's message ids (a client's are any strings). */
const ID = { u1: "check-u1", u2: "check-u2", l1: "check-l1", s1: "check-s1" };

export async function branches(ctx) {
  const first = await ctx.join(SESSION);
  first.close();
  const protocol = first.init?.protocol;
  ctx.keepsBranches = protocol >= 5;
  if (protocol >= 5) return treeScenario(ctx);
  const said = first.init ? `the agent says protocol ${show(protocol)} in init` : "no init: the agent says no protocol (R-init)";
  if (protocol === 4) {
    const arrived = `${said}: it deletes what a turn does not follow and keeps no branches; the adapter checks each prompt against its init and refuses a stale send with 409 stale_conversation`;
    for (const id of PROTOCOL_5_RULES) ctx.judge(id, "n/a", { arrived });
    return sends(ctx);
  }
  const arrived = `${said}: it keeps no branches (the adapter refuses a regenerate or an edit for it)`;
  for (const id of [...PROTOCOL_4_RULES, ...PROTOCOL_5_RULES]) ctx.judge(id, "n/a", { arrived });
}

/** The user and finished messages of a new socket's init, as `{ id, role }`. */
async function conversation(ctx) {
  const b = await ctx.join(SESSION);
  b.close();
  return initMessages(b.init)
    .filter((m) => m.role === "user" || m.parts?.some((p) => p?.type === "finish"))
    .map((m) => ({ id: m.id, role: m.role }));
}

/** Protocol 4's scenario: two sends, a refused prompt during a long turn, the --seen-prompt. */
async function sends(ctx) {
  const a = await ctx.join(SESSION);
  try {
    const t1 = await turnOn(ctx, a, SESSION, ctx.prompts.short, "check-p4-1", { messageId: ID.u1, branch: [] }, `a --prompt with messageId ${ID.u1}`);
    const t2 = t1 && (await turnOn(ctx, a, SESSION, ctx.prompts.short, "check-p4-2", { messageId: ID.u2, branch: [ID.u1, t1.create.turnId] }, `a --prompt with messageId ${ID.u2}`));
    if (!t2) {
      for (const id of PROTOCOL_4_RULES) ctx.judge(id, "skip", { arrived: "the turns that build the conversation did not start (R-turn)" });
      return;
    }
    const before = await conversation(ctx);
    const users = before.filter((m) => m.role === "user").map((m) => m.id);
    ctx.judge("R-message-id", JSON.stringify(users) === JSON.stringify([ID.u1, ID.u2]) ? "pass" : "fail", {
      arrived: `after prompts with messageId ${ID.u1} and ${ID.u2}, a new socket's init holds user messages ${show(users)}`,
    });
    const long = { messageId: ID.l1, branch: before.map((m) => m.id), content: ctx.prompts.long };
    // During it, an edit of the first message (a list of one): all of it, were it not refused.
    const busy = { messageId: ID.u1, branch: [], content: `${ctx.prompts.short} (during a turn)` };
    const during = await busyDuring(ctx, a, long, busy);
    if (during) {
      const after = await conversation(ctx);
      const expected = [...before, { id: ID.l1, role: "user" }, { id: during.create.turnId, role: "assistant" }];
      const shape = (list) => list.map((m) => (m.role === "user" ? "user" : m.id));
      const same = JSON.stringify(shape(after)) === JSON.stringify(shape(expected));
      if (during.refused?.type === "message.create") ctx.judge("R-branch-busy", "skip", { arrived: "the prompt sent during the --long-prompt's turn started a turn of its own", give: LONGER });
      else ctx.judge("R-branch-busy", same ? "pass" : "fail", { arrived: `a prompt replacing the first message (branch []), refused during a turn: a new socket's init then holds ${show(shape(after))}, not ${show(shape(expected))}` });
    }
    await seenSends(ctx, a);
  } finally {
    a.close();
  }
}

/** R-branch-model for protocol 4: the --seen-prompt's model is given the conversation init holds. */
async function seenSends(ctx, a) {
  if (!ctx.prompts.seen) return ctx.judge("R-branch-model", "skip", { arrived: "no prompt that says what the model is given", give: "--seen-prompt" });
  const held = (await conversation(ctx)).map((m) => m.id);
  const seen = await turnOn(ctx, a, SESSION, ctx.prompts.seen, "check-p4-seen", { messageId: ID.s1, branch: held }, "the --seen-prompt");
  if (!seen) return ctx.judge("R-branch-model", "skip", { arrived: "the --seen-prompt started no turn (R-turn)" });
  const missing = [...held, ID.s1].filter((id) => !names(seen.text, id));
  ctx.judge("R-branch-model", missing.length ? "fail" : "pass", { arrived: `the --seen-prompt's reply lacks ${show(missing)} (${show(seen.text)})` });
}
