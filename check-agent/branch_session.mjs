// The session of check-agent's branch scenarios (./branches.mjs for protocol 4, ./tree_scenario.mjs
// for protocol 5, read again after the restart by ./restart.mjs), and what both protocols' scenarios
// drive alike: a long turn, with a prompt sent during it from another socket (R-branch-busy).
import { created } from "./turns.mjs";
import { endOn } from "./turn_end.mjs";
import { WAIT } from "./frames.mjs";

/** The session's label. */
export const SESSION = "branch";

/**
 * A long turn for `long` (`{ messageId, branch, content }`) on `a`, and during it, from a new socket
 * of the session, `during(c)` and then the prompt `busy`; the long turn then aborted and ended (and
 * a turn `busy` started, if any). Resolves to `{ create, refused }` (`refused`: the answer to
 * `busy`: an `error`, null, or the `message.create` of a turn it started), or null when the long
 * turn did not start (R-branch-busy skipped).
 */
export async function busyDuring(ctx, a, long, busy, during = async () => {}) {
  const from = a.frames.length;
  ctx.prompt(a, long.content, "check-long", { messageId: long.messageId, branch: long.branch });
  const create = await created(ctx, a, from, "the --long-prompt with a messageId");
  if (!create) {
    ctx.judge("R-branch-busy", "skip", { arrived: "the long turn did not start (R-turn)" });
    return null;
  }
  ctx.saw(SESSION, create.turnId);
  const c = await ctx.join(SESSION);
  try {
    await during(c, create);
    const mark = c.frames.length;
    ctx.prompt(c, busy.content, "check-busy", { messageId: busy.messageId, branch: busy.branch });
    const refused = await c.waitFor((f) => f.type === "error" || (f.type === "message.create" && f.turnId !== create.turnId), WAIT.reply, mark);
    a.send({ type: "abort", requestId: "check-long" });
    const end = await endOn(a, create.turnId, WAIT.turn, a.frames.indexOf(create));
    await a.waitFor((f) => f.type === "complete", WAIT.settle, end ? a.frames.indexOf(end) : a.frames.length);
    if (refused?.type === "message.create") {
      ctx.saw(SESSION, refused.turnId);
      const second = await endOn(c, refused.turnId, WAIT.turn, c.frames.indexOf(refused));
      await c.waitFor((f) => f.type === "complete", WAIT.settle, second ? c.frames.indexOf(second) : c.frames.length);
    }
    return { create, refused };
  } finally {
    c.close();
  }
}
