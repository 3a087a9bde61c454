// check-agent's checks: drives an agent over its WebSocket exactly as the adapter does, through a
// scenario for every rule of docs/agent-protocol.md, and judges each rule (R-…) pass, fail, skip
// (a part could not be driven) or n/a, with what was expected, what arrived, and what a chat
// client sees because of it.
//
// `checkAgent({ connect, prompts, declares, restart })`: `connect(session)` opens a socket to the
// agent of `session` (a `ws` WebSocket, not yet open); `prompts` are the texts sent as prompts:
// `short` (a turn that ends), `long` (a turn of a few seconds, to abort and to join mid-way),
// `ask` (a turn that asks a question), `approve` (a turn that asks before it runs a tool call),
// `seen` (optional: a turn whose reply names the ids of the messages the model is given),
// `extras` (optional: a turn that sends data parts, sources and metadata, protocol 6);
// `declares` says what the agent lacks on purpose ({ questions: false }, { approvals: false },
// { extras: false });
// `restart` (optional) restarts the agent's worker and resolves once it serves again;
// `longSession: false` leaves the long session out (its rules, ./bounds.mjs's
// `JUDGED_OVER_LONG_SESSION`, are then skipped: the tests' broken agents of other rules, whose
// runs it would double). The
// scenarios run at once, each in a session of its own (a forgotten one, protocol 7, among them); a
// long session (protocol 5) follows them, and the restart comes last (it reads the forgotten
// session again too). Resolves to
// { results, exitCode }.
import { Conn, Refused } from "./conn.mjs";
import { aborts, closes } from "./aborts.mjs";
import { extrasTurn, judgeExtras } from "./extras.mjs";
import { forgets } from "./forget.mjs";
import { judgeTitles } from "./title.mjs";
import { bounds, JUDGED_OVER_LONG_SESSION } from "./bounds.mjs";
import { branches } from "./branches.mjs";
import { checkQuestions } from "./questions.mjs";
import { restarts } from "./restart.mjs";
import { basics, watch } from "./turns.mjs";
import { show, sleep, WAIT } from "./frames.mjs";
import { exitCode, Verdicts } from "./verdicts.mjs";

export { Unreachable } from "./conn.mjs";

/** The staleness of the stale answer: a questionId no agent has asked. */
const NO_SUCH_QUESTION = "check-no-such-question";

export async function checkAgent({ connect, prompts, declares = {}, restart = null, longSession = true, sessionPrefix = `check-${Date.now().toString(36)}` }) {
  const verdicts = new Verdicts();
  const conns = [];
  const turns = new Map();
  const ctx = {
    prompts,
    declares,
    restart,
    judge: (id, status, detail) => verdicts.judge(id, status, detail),
    note: (id, text) => verdicts.note(id, text),
    /** Opens a socket of session `label` and waits for its init. */
    join: async (label) => {
      // An agent that sent one socket no first frame at all sends none: later sockets wait less.
      const conn = await Conn.open(connect(`${sessionPrefix}-${label}`), ctx.initless ? WAIT.settle : WAIT.init);
      if (conn.init === undefined && conn.frames.length === 0) ctx.initless = true;
      conns.push(conn);
      return conn;
    },
    prompt: (conn, content, requestId, extra = {}) => conn.send({ type: "prompt", content, requestId, onDisconnect: "abort", ...extra }),
    /** Records that `turnId` was a turn of session `label` (R-turn-id: never reused). */
    saw: (label, turnId) => (turns.get(label) ?? turns.set(label, new Set()).get(label)).add(turnId),
    turnsOf: (label) => new Set(turns.get(label) ?? []),
  };

  try {
    let first;
    try {
      first = await ctx.join("basics");
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      verdicts.judge("R-open", "fail", { arrived: err.message });
      return finish(verdicts);
    }
    verdicts.judge("R-open", "pass");
    const scenarios = [basics(ctx, first), watch(ctx), aborts(ctx), closes(ctx), staleAnswer(ctx), checkQuestions(ctx), branches(ctx), extrasTurn(ctx), forgets(ctx)];
    await Promise.all(scenarios.map((run) => run.catch((err) => refusedLater(verdicts, err))));
    // A long session (protocol 5) after the others, whose timings its load would blur.
    if (longSession) await bounds(ctx).catch((err) => refusedLater(verdicts, err));
    else if (ctx.keepsBranches) for (const id of JUDGED_OVER_LONG_SESSION) verdicts.judge(id, "skip", { arrived: "not driven: the long session was left out (longSession: false)" });
    await restarts(ctx).catch((err) => refusedLater(verdicts, err));
    judgeExtras(ctx, conns);
    judgeTitles(ctx, conns);
    verdicts.judge("R-json", conns.every((c) => c.bad.length === 0) ? "pass" : "fail",
      { arrived: `frame(s) that are not a JSON object with a string type: ${show(conns.flatMap((c) => c.bad)[0])}` });
    return finish(verdicts);
  } finally {
    for (const conn of conns) conn.terminate();
  }
}

/** An upgrade refused after the first one was accepted is R-open's failure; anything else is a
 * bug of the run, thrown on. */
function refusedLater(verdicts, err) {
  if (!(err instanceof Refused)) throw err;
  verdicts.judge("R-open", "fail", { arrived: `a later upgrade: ${err.message}` });
}

function finish(verdicts) {
  const results = verdicts.results();
  return { results, exitCode: exitCode(results) };
}

/** An answer to no question: an error (R-answer-refused) with its code (R-error-code), on that
 * socket only (R-error-scope). */
async function staleAnswer(ctx) {
  const x = await ctx.join("answer");
  const y = await ctx.join("answer");
  const marks = [x.frames.length, y.frames.length];
  x.send({ type: "answer", questionId: NO_SUCH_QUESTION, answer: "yes", onDisconnect: "abort" });
  const refused = await x.waitFor((f) => f.type === "error", WAIT.reply, marks[0]);
  ctx.judge("R-answer-refused", refused ? "pass" : "fail", { arrived: `no error within ${WAIT.reply / 1000} s for an answer to a question never asked` });
  await sleep(WAIT.settle);
  if (refused) {
    ctx.judge("R-error-code", refused.code === "question_not_pending" ? "pass" : "fail", { arrived: `the refusal ${show(refused)}` });
    const leaked = y.since(marks[1], (f) => f.type === "error");
    ctx.judge("R-error-scope", leaked.length ? "fail" : "pass", { arrived: `the refusal of another socket's answer arrived here too: ${show(leaked[0])}` });
  }
  x.close();
  y.close();
}
