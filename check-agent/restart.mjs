// check-agent's restart scenario, run last (a restart closes every socket): a finished turn and a
// running one, then the agent's worker restarted (`ctx.restart`, with --config). After it, the
// finished turn is in init (R-history), the running one is not listed as in flight (R-restart),
// a new turn's turnId is new in the session (R-turn-id), every message of the branch scenario's
// tree (protocol 5) is still there, every branch of it (R-keep, with what ./crawl.mjs judges), and
// nothing of the session forgotten before it (protocol 7) is back (R-forget, ./forget.mjs).
import { SESSION as BRANCH } from "./branch_session.mjs";
import { crawl, judgeTree } from "./crawl.mjs";
import { afterRestart as forgottenAfterRestart } from "./forget.mjs";
import { created } from "./turns.mjs";
import { judgeTurn } from "./turn_end.mjs";
import { finishOf, messageIn, show, WAIT } from "./frames.mjs";

const NEEDS = "--config (check-agent then restarts your worker)";

/** The rules this scenario judges across a restart: an agent that breaks one only when its object
 * starts again is found out here alone (tests/e2e/check_agent_mutants.test.mjs restarts the broken
 * agents of these rules only). */
export const JUDGED_ACROSS_RESTART = ["R-history", "R-restart", "R-turn-id", "R-keep", "R-forget"];

export async function restarts(ctx) {
  if (!ctx.restart) {
    ctx.judge("R-restart", "skip", { arrived: "the agent was not restarted (a deployed agent, --url)", give: NEEDS });
    ctx.note("R-history", "checked on new sockets, not across a restart (that needs --config)");
    ctx.note("R-turn-id", "turnIds not checked across a restart (that needs --config)");
    if (ctx.branchTree) ctx.note("R-keep", "checked on new sockets, not across a restart (that needs --config)");
    if (ctx.forgotten) ctx.note("R-forget", "checked on new sockets, not across a restart (that needs --config)");
    return;
  }
  const a = await ctx.join("restart");
  let from = a.frames.length;
  ctx.prompt(a, ctx.prompts.short, "check-x1");
  const done = await created(ctx, a, from, "the --prompt");
  if (!done) return;
  ctx.saw("restart", done.turnId);
  await judgeTurn(ctx, a, done, "the --prompt");
  from = a.frames.length;
  ctx.prompt(a, ctx.prompts.long, "check-x2", { onDisconnect: "detach" });
  const running = await created(ctx, a, from, "the --long-prompt");
  if (running) ctx.saw("restart", running.turnId);
  await ctx.restart();

  const b = await ctx.join("restart");
  if (!b.init) {
    const why = { arrived: "no init after the restart (R-init)" };
    ctx.judge("R-history", "skip", why);
    ctx.judge("R-restart", "skip", why);
  } else {
    const messages = b.init.messages ?? [];
    const kept = finishOf(messageIn(b.init, done.turnId)) !== undefined;
    ctx.judge("R-history", kept ? "pass" : "fail", { arrived: `after a restart, init without the finished message ${done.turnId} (${messages.length} message(s))` });
    const dead = running && messageIn(b.init, running.turnId);
    if (!running) ctx.judge("R-restart", "skip", { arrived: "no turn was running at the restart (R-turn)" });
    else if (dead && !finishOf(dead)) {
      ctx.judge("R-restart", "fail", { arrived: `after the restart, init lists ${running.turnId} (running when the object stopped) as in flight: ${show(dead.parts?.map((p) => p?.type))}` });
    } else ctx.judge("R-restart", "pass");
  }
  if (ctx.branchTree) judgeTree(ctx, ctx.branchTree, await crawl(ctx, BRANCH, ctx.branchTree), "a restart");
  await forgottenAfterRestart(ctx);
  from = b.frames.length;
  ctx.prompt(b, ctx.prompts.short, "check-x3");
  const after = await created(ctx, b, from, "a --prompt after the restart");
  if (after) {
    const earlier = ctx.turnsOf("restart");
    if (earlier.has(after.turnId)) ctx.judge("R-turn-id", "fail", { arrived: `after a restart, turnId ${show(after.turnId)} again: an earlier turn of the session had it` });
    ctx.saw("restart", after.turnId);
    await judgeTurn(ctx, b, after, "a --prompt after the restart");
  }
  b.close();
}
