// check-agent's long session (protocol 5, R-init-bounds): a conversation longer than a page, built
// fast by turns of the --long-prompt aborted as soon as they start (a turn stores its user message
// and its reply whatever ends it): 101 small ones (202 messages, one turn more than a page holds), then 8 of
// 450,000 characters (3.6 MB of user messages, more than a page's 3 MiB). After the small ones and
// again after the big ones, a new socket's init must hold at most 200 messages and 3 MiB of them,
// the newest of the branch (a chain ending with the newest reply); so must a history answer that
// asks for 500 messages; and the page before init's first message must be within the bounds
// (that it is the page before it is R-history-request's).
import { askHistory, initMessages, outOfBounds, refsOf } from "./history.mjs";
import { created } from "./turns.mjs";
import { endOn } from "./turn_end.mjs";
import { show, WAIT } from "./frames.mjs";

const SESSION = "bounds";

/** The rules only this scenario can find broken (./check.mjs's `longSession`). */
export const JUDGED_OVER_LONG_SESSION = ["R-init-bounds"];
/** Small turns: 202 messages, one turn more than the 200 a page holds. */
const SMALL_TURNS = 101;
/** Big turns, each a user message of BIG_CHARS characters: 3.6 MB, past a page's 3 MiB, each
 * under the demo agent's 512 KiB row (crates/demo/src/rows.rs), which would shorten it. */
const BIG_TURNS = 8;
const BIG_CHARS = 450_000;
/** Turns that may end by themselves before their abort is read, as on a loaded machine. */
const UNCANCELED = 2;

/** The long session, for an agent that keeps branches (./branches.mjs found it says protocol 5;
 * R-init-bounds is n/a otherwise, judged there). */
export async function bounds(ctx) {
  if (!ctx.keepsBranches) return;
  const a = await ctx.join(SESSION);
  try {
    const state = { branch: [], waitComplete: true, uncanceled: 0 };
    for (let i = 0; i < SMALL_TURNS + BIG_TURNS; i++) {
      // The --long-prompt's turn, so that its abort always comes before its end: a short turn
      // can end by itself first.
      const content = i < SMALL_TURNS ? ctx.prompts.long : `${ctx.prompts.long}\n${"x".repeat(BIG_CHARS)}`;
      const stopped = await abortedTurn(ctx, a, state, content, i + 1);
      if (stopped !== true) return ctx.judge("R-init-bounds", "skip", { arrived: `a long session could not be built fast: turn ${i + 1} ${stopped}` });
      if (i === SMALL_TURNS - 1) await judgePages(ctx, state, `${2 * SMALL_TURNS} messages`);
    }
    await judgePages(ctx, state, `${2 * (SMALL_TURNS + BIG_TURNS)} messages, ${BIG_TURNS} of them of ${BIG_CHARS} characters`);
  } finally {
    a.close();
  }
}

/** One turn for `content` after `state.branch`, aborted as soon as it starts: true once it ended,
 * else why not (in words). A turn that ended by itself before its abort was read (a loaded machine)
 * is kept all the same, up to UNCANCELED of them: what it stored is what this scenario needs, and
 * R-abort is judged in ./aborts.mjs; more, and the agent is taken to ignore aborts, which would
 * make the long session take minutes. */
async function abortedTurn(ctx, a, state, content, n) {
  const from = a.frames.length;
  const requestId = `check-bound-${n}`;
  const messageId = `check-m${n}`;
  ctx.prompt(a, content, requestId, { messageId, branch: state.branch });
  const create = await created(ctx, a, from, `a prompt of the long session (${n})`);
  if (!create) return "did not start (R-turn)";
  ctx.saw(SESSION, create.turnId);
  a.send({ type: "abort", requestId });
  const end = await endOn(a, create.turnId, WAIT.turn, a.frames.indexOf(create));
  if (!end || end.type !== "message.finalize") return `did not end within ${WAIT.turn / 1000} s of its abort (${show(end?.type ?? null)})`;
  if (end.reason !== "canceled" && ++state.uncanceled > UNCANCELED) return `ended ${show(end.reason)}: ${state.uncanceled} turns not canceled by their abort (R-abort)`;
  // The next prompt once the agent is idle: after `complete`, when it sends one (R-complete).
  if (state.waitComplete) state.waitComplete = (await a.waitFor((f) => f.type === "complete", WAIT.settle, a.frames.indexOf(end))) !== null;
  state.branch.push(messageId, create.turnId);
  state.newest = create.turnId;
  return true;
}

/** R-init-bounds after `what`: init and a history answer asked for 500 messages, each within the
 * bounds and the newest of the branch; the page before init's first message within the bounds
 * (and, R-history-request, the messages before it). */
async function judgePages(ctx, state, what) {
  const b = await ctx.join(SESSION);
  try {
    if (!b.init) return ctx.judge("R-init-bounds", "skip", { arrived: "no init (R-init)" });
    const init = initMessages(b.init);
    const latest = await askHistory(b, { limit: 500 });
    const first = init[0];
    const older = await askHistory(b, { before: first?.ref, limit: 200 });
    const problem =
      wrongPage(init, state.newest, "init") ??
      (latest.messages ? wrongPage(latest.messages, state.newest, 'history {"limit":500}') : `history {"limit":500} answered ${show(latest.answer)}`) ??
      (older.messages && outOfBounds(older.messages) ? `history {"before":${show(first?.ref)}} holds ${outOfBounds(older.messages)}` : null);
    ctx.judge("R-init-bounds", problem ? "fail" : "pass", { arrived: `after ${what}: ${problem}` });
    const page = older.messages ?? [];
    const chain = page.every((m, i) => i === 0 || m.parent === page[i - 1].ref);
    const before = older.messages !== null && ((first?.parent ?? null) === null ? page.length === 0 : chain && page.at(-1)?.ref === first.parent);
    ctx.judge("R-history-request", before ? "pass" : "fail", {
      arrived: `after ${what}: history {"before":${show(first?.ref)},"limit":200} answered ${show(older.messages ? refsOf(page).slice(-4) : older.answer)}, not the messages before it (ending with ${show(first?.parent)})`,
    });
  } finally {
    b.close();
  }
}

/** What is wrong with `page` (named `what`): past the bounds, not a chain, not ending with the
 * reply `newest`. Null when nothing is. */
function wrongPage(page, newest, what) {
  const bounds = outOfBounds(page);
  if (bounds) return `${what} holds ${bounds}`;
  const chain = page.every((m, i) => i === 0 || m.parent === page[i - 1].ref);
  if (!chain || page.at(-1)?.id !== newest) return `${what} is not the newest of the branch: ${show(refsOf(page).slice(-4))} (${page.length} messages)`;
  return null;
}
