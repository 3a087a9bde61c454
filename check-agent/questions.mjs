// check-agent's question scenarios: a question answered (`--ask-prompt`: R-answer), a tool call
// gated by an approval question, denied and then approved (`--approve-prompt`: R-approval), and
// the questionIds of both (R-question-id). As the adapter does, the socket that prompted is
// closed at the question and the answer comes on a new socket.
import { endOf, judgeAbort, judgeBusy, judgeTurn } from "./turn_end.mjs";
import { finalizeOf, finishOf, messageIn, show, sleep, toolOfTurn, WAIT } from "./frames.mjs";

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
 * R-question-id (not applicable when the agent is declared to ask none: `declares`; skipped,
 * with the option to give, when their prompt is missing). */
export async function checkQuestions(ctx) {
  const { prompts, declares } = ctx;
  const ids = questionIds(ctx.judge);
  const none = { arrived: "the agent asks no questions (--no-questions)" };
  if (declares.questions === false) {
    for (const id of ["R-answer", "R-question-id", "R-approval"]) ctx.judge(id, "n/a", none);
    return;
  }
  const tasks = [];
  if (prompts.ask) tasks.push(checkAnswer(ctx, ids, prompts.ask).then(() => checkStopWaiting(ctx, prompts.ask)));
  else ctx.judge("R-answer", "skip", { arrived: "no --ask-prompt given", give: "--ask-prompt (or --no-questions if your agent never asks)" });
  if (declares.approvals === false) ctx.judge("R-approval", "n/a", { arrived: "the agent gates no tool call (--no-approvals)" });
  else if (prompts.approve) {
    tasks.push((async () => {
      await checkApproval(ctx, ids, prompts.approve, DENY, "check-r6");
      await checkApproval(ctx, ids, prompts.approve, APPROVE, "check-r7");
    })());
  } else ctx.judge("R-approval", "skip", { arrived: "no --approve-prompt given", give: "--approve-prompt (or --no-approvals if your agent gates no tool call)" });
  await Promise.all(tasks);
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
      judge("R-question-id", "skip", { arrived: why, give: "--ask-prompt (or --no-questions if your agent never asks)" });
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
async function ask(ctx, session, text, requestId) {
  const asking = await ctx.join(session);
  const from = asking.frames.length;
  ctx.prompt(asking, text, requestId);
  const stop = await asking.waitFor((f) => f.type === "question" || f.type === "message.finalize", ctx.turnless ? WAIT.settle : WAIT.create, from);
  const question = stop?.type === "question" ? stop : null;
  const create = asking.frames.slice(from).find((f) => f.type === "message.create") ?? null;
  if (create) ctx.saw(session, create.turnId);
  asking.close();
  return { asking, create, question, from };
}

/** Sends `answerValue` to `question` from a new socket of `session` and waits for a turn's end
 * (or an error). Resolves to { answering, from, end }. */
async function answer(ctx, session, question, answerValue) {
  await sleep(300);
  const answering = await ctx.join(session);
  const from = answering.frames.length;
  answering.send({ type: "answer", questionId: question.questionId, answer: answerValue, onDisconnect: "abort" });
  const ended = (f) => f.type === "message.finalize" || f.type === "complete" || f.type === "error";
  const end = await answering.waitFor(ended, WAIT.turn, from);
  await sleep(WAIT.settle);
  answering.close();
  return { answering, from, end };
}

/** `--ask-prompt`, watched by a socket that joined before it: the question reaches every socket
 * (R-broadcast); while it waits, the turn is in flight (R-init-in-flight, with its question), a
 * prompt starts nothing (R-one-turn) and gets an error (R-busy); the answer resumes the turn
 * under the same turnId with no new message.create (R-answer), to one finalize. */
async function checkAnswer(ctx, ids, text) {
  const watcher = await ctx.join("ask");
  const { asking, create, question } = await ask(ctx, "ask", text, "check-r5");
  if (!question || !create) {
    watcher.close();
    return ctx.judge("R-answer", "skip", { arrived: "the --ask-prompt asked no question", give: "an --ask-prompt that makes your agent ask" });
  }
  const turnId = create.turnId;
  const heard = await watcher.waitFor((f) => f.type === "question" && f.questionId === question.questionId, WAIT.reply);
  ctx.judge("R-broadcast", heard ? "pass" : "fail", { arrived: "a socket of the session got no question while another socket's turn asked one" });
  await whileWaiting(ctx, turnId, question);

  const { answering, from } = await answer(ctx, "ask", question, "yes");
  const after = answering.since(from);
  // No new message.create, under another turnId or the same one (R-answer: "no new").
  const other = after.find((f) => f.type === "message.create");
  // Events under another turnId with no create of their own are R-turn-id's to judge.
  const next = after.find((f) => (f.type.startsWith("message.part.") || f.type === "message.finalize") && f.turnId === turnId);
  const refused = after.find((f) => f.type === "error");
  if (other) ctx.judge("R-answer", "fail", { arrived: `after the answer, a new message.create ${show(other)} (the turn was ${turnId})` });
  else if (!next) ctx.judge("R-answer", "fail", { arrived: refused ? `the answer was refused: ${show(refused)}` : `no event of ${turnId} after the answer` });
  else ctx.judge("R-answer", "pass");
  ids.see("ask", question, callIdsOf(turnId, [asking, answering, watcher]));
  const watched = watcher.frames.find((f) => f.type === "message.create" && f.turnId === turnId);
  if (!other && watched) await judgeTurn(ctx, watcher, watched, "a turn that asked a question");
  watcher.close();
}

/** A turn waiting on `question`, seen from a new socket: listed in flight with the question
 * (R-init-in-flight), and a prompt from it starts nothing (R-one-turn) and gets an error (R-busy). */
async function whileWaiting(ctx, turnId, question) {
  const x = await ctx.join("ask");
  if (x.init) {
    const message = messageIn(x.init, turnId);
    const waits = message && !finishOf(message) && message.parts?.some((p) => p?.type === "question" && p.questionId === question.questionId);
    ctx.judge("R-init-in-flight", waits ? "pass" : "fail", { arrived: `while ${turnId} waited on question ${question.questionId}, init ${message ? `listed it as ${show(message.parts?.map((p) => p?.type))}` : "did not list it"}` });
  }
  const from = x.frames.length;
  ctx.prompt(x, ctx.prompts.short, "check-r5-busy");
  const reply = await x.waitFor((f) => f.type === "error" || f.type === "message.create", WAIT.reply, from);
  if (reply?.type === "message.create") ctx.judge("R-one-turn", "fail", { arrived: `a prompt sent while ${turnId} waited on a question started ${show(reply)}` });
  else {
    ctx.judge("R-one-turn", "pass");
    judgeBusy(ctx, reply, "while a turn waited on a question");
  }
  x.close();
}

/** A turn waiting on a question, stopped by an abort without requestId (the stop button): R-abort. */
async function checkStopWaiting(ctx, text) {
  const watcher = await ctx.join("ask-stop");
  const { create, question } = await ask(ctx, "ask-stop", text, "check-r8");
  if (!create || !question) return watcher.close();
  const stopper = await ctx.join("ask-stop");
  const sent = Date.now();
  stopper.send({ type: "abort" });
  const label = "an abort without requestId while the turn waited on a question";
  const seen = watcher.frames.find((f) => f.type === "message.create" && f.turnId === create.turnId);
  if (seen) {
    await judgeAbort(ctx, watcher, create.turnId, sent, label, stopper);
    // A turn the abort did not stop waits on: its finalize is not awaited.
    if (watcher.frames.some(finalizeOf(create.turnId))) await judgeTurn(ctx, watcher, seen, "a turn stopped while it waited on a question");
  } else {
    // An agent that does not broadcast: the turn's end is read from a later socket's init.
    const end = await endOf(ctx, watcher, "ask-stop", create.turnId, WAIT.reply);
    ctx.judge("R-abort", end?.reason === "canceled" ? "pass" : "fail", { arrived: `${label}: ${end ? `the turn ended ${show(end.reason)}` : `the turn still waited ${WAIT.reply / 1000} s later`}` });
  }
  stopper.close();
  watcher.close();
}

/** `--approve-prompt`, once: the call announced, the question naming it, the answer `decision`
 * from a new socket, then the call's fate and the turn's end (R-approval). */
async function checkApproval(ctx, ids, text, decision, requestId) {
  const fail = (kind, arrived) => ctx.judge("R-approval", "fail", { ...APPROVAL[kind], arrived });
  const { asking, create, question, from } = await ask(ctx, "approve", text, requestId);
  if (!create) {
    ctx.judge("R-turn", "fail", { arrived: `the --approve-prompt: no message.create within ${WAIT.create / 1000} s` });
    return ctx.judge("R-approval", "skip", { arrived: "no turn started (R-turn)" });
  }
  if (!question) {
    const ended = asking.frames.some((f) => f.type === "message.finalize" && f.turnId === create.turnId);
    return fail("asked", ended ? "the turn ended without a question" : `no question within ${WAIT.create / 1000} s of the prompt`);
  }
  const before = asking.frames.slice(from, asking.frames.indexOf(question)).filter(toolOfTurn(create.turnId));
  const gate = gateProblem(question, before);
  if (gate) fail("gate", gate);
  const { answering, from: after, end } = await answer(ctx, "approve", question, decision);
  ids.see("approve", question, callIdsOf(create.turnId, [asking, answering]));
  const moved = answering.since(after).find((f) => f.type === "message.create" && f.turnId !== create.turnId);
  if (moved) return ctx.judge("R-approval", "skip", { arrived: `after the answer the turn went on as ${moved.turnId} (R-answer)` });
  const updates = answering.frames.slice(after).filter(toolOfTurn(create.turnId)).filter((f) => f.callId === question.toolCallId);
  const fate = decision.approved ? approvedProblem(updates) : deniedProblem(question.toolCallId, updates);
  if (fate) fail(decision.approved ? "approved" : "denied", fate);
  const finalize = answering.frames.slice(after).find((f) => f.type === "message.finalize" && f.turnId === create.turnId);
  if (end?.type === "error") fail("ended", `the answer ${show(decision)} was refused: ${show(end)}`);
  else if (!finalize && end?.type !== "complete") fail("ended", `no message.finalize of ${create.turnId} ${end ? `after the answer, but ${show(end)}` : `within ${WAIT.turn / 1000} s of the answer`}`);
  // A turn that ends with `complete` and no finalize is R-finalize's to judge.
  if (!gate && !fate && (finalize || end?.type === "complete")) ctx.judge("R-approval", "pass");
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
