// check-agent's question scenarios: a question answered (`--ask-prompt`: R-answer), a tool call
// gated by an approval question, denied and then approved (`--approve-prompt`: R-approval), and
// the questionIds of both (R-question-id). As the adapter does, the socket that prompted is
// closed at the question and the answer comes on a new socket.
import { isTurnEvent, show, sleep, toolOfTurn, WAIT } from "./frames.mjs";

/** The answers the approval scenario sends, one run each: a denial with a reason, an approval. */
const DENY = { approved: false, reason: "checking" };
const APPROVE = { approved: true };

/** What a failed R-approval expects and what a chat client sees, by what went wrong. */
const APPROVAL = {
  gate: {
    expected: "a question whose toolCallId names a call announced before it (tool-update pending or running, with args) and still open",
    impact: "the client shows a free question: no approve / deny on the tool's card, and the answer is an option, not a decision",
  },
  asked: {
    expected: "a tool-update announcing the call, then a question with its toolCallId",
    impact: "the tool runs (or the turn ends) without the user being asked",
  },
  denied: {
    expected: 'the denied call ended status "error", never "running" or "completed" after the denial, then message.finalize',
    impact: "a user who pressed Deny sees the tool run anyway",
  },
  approved: {
    expected: 'the approved call brought to "completed" (or "error"), then message.finalize',
    impact: "a user who pressed Approve sees the tool never run: its card ends Interrupted",
  },
  ended: {
    expected: "the turn going on after the answer, under the same turnId, to its message.finalize",
    impact: "the answer's stream never ends, or ends in an error",
  },
};

/** Runs the scenarios `prompts` has prompts for, and judges R-answer, R-approval and
 * R-question-id (skipped, with the reason, when their prompt is not given). */
export async function checkQuestions({ open, prompt, judge, prompts }) {
  const ids = questionIds(judge);
  if (prompts.ask) await checkAnswer({ open, prompt, judge, ids }, prompts.ask);
  else judge("R-answer", "skip", { arrived: "no --ask-prompt given" });
  if (prompts.approve) {
    await checkApproval({ open, prompt, judge, ids }, prompts.approve, DENY, "check-r6");
    await checkApproval({ open, prompt, judge, ids }, prompts.approve, APPROVE, "check-r7");
  } else judge("R-approval", "skip", { arrived: "no --approve-prompt given" });
  ids.finish(prompts);
}

/** R-question-id: every question's id is a non-empty string, new in its session, and no callId
 * of its turn. `see` judges one question once its turn is over (all its callIds known). */
function questionIds(judge) {
  const seen = new Map(); // session label → questionIds
  let checked = 0;
  const fail = (arrived) => judge("R-question-id", "fail", { arrived });
  return {
    see(session, question, callIds) {
      checked++;
      const id = question.questionId;
      const earlier = seen.get(session) ?? new Set();
      seen.set(session, new Set(earlier).add(id));
      if (typeof id !== "string" || id === "") return fail(`questionId ${show(id)} in ${show(question)}`);
      if (earlier.has(id)) return fail(`questionId ${show(id)} asked twice in one session`);
      if (callIds.has(id)) return fail(`questionId ${show(id)} is also the callId of a tool call of its turn`);
      judge("R-question-id", "pass");
    },
    finish(prompts) {
      if (checked > 0) return;
      const why = prompts.ask || prompts.approve ? "no question was asked" : "no --ask-prompt or --approve-prompt given";
      judge("R-question-id", "skip", { arrived: why });
    },
  };
}

/** The callIds of every tool update of `turnId` on `conns`. */
function callIdsOf(turnId, conns) {
  return new Set(conns.flatMap((c) => c.frames.filter(toolOfTurn(turnId)).map((f) => f.callId)));
}

/** Opens a socket of `session`, prompts `text` and waits for its question (or the end of a turn
 * that asks none); the socket is closed then, as the adapter closes its socket at a question.
 * Resolves to { asking, create, question, from } (`create` and `question` may be null). */
async function ask(open, prompt, session, text, requestId) {
  const asking = await open(session);
  await asking.waitFor(() => true, WAIT.init);
  const from = asking.frames.length;
  prompt(asking, text, requestId);
  const stop = await asking.waitFor((f) => f.type === "question" || f.type === "message.finalize", WAIT.create, from);
  const question = stop?.type === "question" ? stop : null;
  const create = asking.frames.slice(from).find((f) => f.type === "message.create") ?? null;
  asking.close();
  return { asking, create, question, from };
}

/** Sends `answerValue` to `question` from a new socket of `session` and waits for a turn's end
 * (or an error). Resolves to { answering, from, end }. */
async function answer(open, session, question, answerValue) {
  await sleep(300);
  const answering = await open(session);
  await answering.waitFor(() => true, WAIT.init);
  const from = answering.frames.length;
  answering.send({ type: "answer", questionId: question.questionId, answer: answerValue, onDisconnect: "abort" });
  const ended = (f) => f.type === "message.finalize" || f.type === "complete" || f.type === "error";
  const end = await answering.waitFor(ended, WAIT.turn, from);
  await sleep(WAIT.settle);
  answering.close();
  return { answering, from, end };
}

/** `--ask-prompt`: the turn goes on under the same turnId after the answer (R-answer). */
async function checkAnswer({ open, prompt, judge, ids }, text) {
  const { asking, create, question } = await ask(open, prompt, "ask", text, "check-r5");
  if (!question || !create) return judge("R-answer", "skip", { arrived: "the --ask-prompt asked no question" });
  const { answering, from } = await answer(open, "ask", question, "yes");
  const next = answering.frames.slice(from).find((f) => isTurnEvent(f) || f.type === "error");
  judge("R-answer", next && next.type !== "error" && next.turnId === create.turnId ? "pass" : "fail",
    { arrived: next ? show(next) : "nothing after the answer" });
  ids.see("ask", question, callIdsOf(create.turnId, [asking, answering]));
}

/** `--approve-prompt`, once: the call announced, the question naming it, the answer `decision`
 * from a new socket, then the call's fate and the turn's end (R-approval). */
async function checkApproval({ open, prompt, judge, ids }, text, decision, requestId) {
  const fail = (kind, arrived) => judge("R-approval", "fail", { ...APPROVAL[kind], arrived });
  const { asking, create, question, from } = await ask(open, prompt, "approve", text, requestId);
  if (!create) return fail("asked", "no message.create for the --approve-prompt");
  if (!question) {
    const ended = asking.frames.some((f) => f.type === "message.finalize" && f.turnId === create.turnId);
    return fail("asked", ended ? "the turn ended without a question" : `no question within ${WAIT.create / 1000} s of the prompt`);
  }
  const before = asking.frames.slice(from, asking.frames.indexOf(question)).filter(toolOfTurn(create.turnId));
  const gate = gateProblem(question, before);
  if (gate) fail("gate", gate);
  const { answering, from: after, end } = await answer(open, "approve", question, decision);
  ids.see("approve", question, callIdsOf(create.turnId, [asking, answering]));
  const updates = answering.frames.slice(after).filter(toolOfTurn(create.turnId)).filter((f) => f.callId === question.toolCallId);
  const fate = decision.approved ? approvedProblem(updates) : deniedProblem(question.toolCallId, updates);
  if (fate) fail(decision.approved ? "approved" : "denied", fate);
  const finalize = answering.frames.slice(after).find((f) => f.type === "message.finalize" && f.turnId === create.turnId);
  if (end?.type === "error") fail("ended", `the answer ${show(decision)} was refused: ${show(end)}`);
  else if (!finalize) fail("ended", `no message.finalize of ${create.turnId} ${end ? `after the answer, but ${show(end)}` : `within ${WAIT.turn / 1000} s of the answer`}`);
  if (!gate && !fate && finalize) judge("R-approval", "pass");
}

/** What is wrong with the call `question` gates, as the tool updates `before` it show; null when
 * it names a call announced (pending or running, with args) and still open. */
function gateProblem(question, before) {
  const callId = question.toolCallId;
  if (typeof callId !== "string" || callId === "") return `a question without toolCallId: ${show(question)}`;
  const updates = before.filter((f) => f.callId === callId);
  if (updates.length === 0) {
    const calls = [...new Set(before.map((f) => f.callId))];
    return `toolCallId ${show(callId)} names no call announced before the question (the turn's calls: ${calls.length ? calls.join(", ") : "none"})`;
  }
  const last = updates.at(-1).status;
  if (last !== "pending" && last !== "running") return `call ${callId} was already ${show(last)} when the question came`;
  if (!updates.some((f) => (f.status === "pending" || f.status === "running") && f.args !== undefined)) return `call ${callId} announced without args: ${show(updates[0])}`;
  return null;
}

/** What is wrong with a denied call's updates after the answer; null when it ended `error` and
 * never ran. */
function deniedProblem(callId, updates) {
  const ran = updates.find((f) => f.status === "completed" || f.status === "running");
  if (ran) return `after the denial, call ${callId} went ${show(ran.status)}: ${show(ran)}`;
  if (!updates.some((f) => f.status === "error")) return `after the denial, call ${callId} was never ended "error" (its updates: ${updates.map((f) => f.status).join(", ") || "none"})`;
  return null;
}

/** What is wrong with an approved call's updates after the answer; null when it reached
 * `completed` or `error`. */
function approvedProblem(updates) {
  const last = updates.at(-1);
  if (last?.status === "completed" || last?.status === "error") return null;
  return `after the approval the call's updates were ${updates.map((f) => f.status).join(", ") || "none"}`;
}
