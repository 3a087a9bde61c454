// 5. Drops at random points of detached `/slow` turns (`"onDisconnect": "detach"`): no drop may
// reach the agent as an `abort`; every turn must run to its end, and a resume right after the
// drop must rebuild the whole message (a full replay from `start`, then live to `finish`) with
// exactly the text the agent sent. Afterwards the history holds the finished message.
import { chatBody } from "../e2e/harness.mjs";
import { request, sleep, pool, checkStream } from "./lib.mjs";

/** The turn: 40 deltas 40 ms apart, ~1.6 s, longer than the latest drop. */
const PROMPT = "/slow 40 40";
/** Drops fall 50–1000 ms after the POST starts: after it reached the worker, before the turn ends. */
const MIN_DROP_MS = 50;
const MAX_DROP_MS = 1000;
/** A resume that found no turn yet is tried again this often, this many times. */
const RESUME_RETRY_MS = 50;
const RESUME_TRIES = 20;
/** How long a trial waits for the turn's finalize in the agent's sent log after the resume. */
const FINISH_WITHIN_MS = 10_000;

export async function detach(ctx, { count, concurrency }) {
  const { worker, rand, demoLog, newSession, expectLog } = ctx;
  const delays = Array.from({ length: count }, () => MIN_DROP_MS + rand() * (MAX_DROP_MS - MIN_DROP_MS));
  const base = worker.base;

  const trials = await pool(count, concurrency, async (i) => {
    const session = newSession("rel-detach");
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), delays[i]);
    const post = await request(`${base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody(PROMPT, { onDisconnect: "detach" }),
      signal: controller.signal,
      timeoutMs: 15_000,
    });
    clearTimeout(timer);
    const trial = { session, dropMs: Math.round(delays[i]), status: post.status, dropped: post.aborted };
    const problems = [];
    if (!post.aborted) problems.push(`the POST was not dropped (${post.networkError ?? `status ${post.status}`})`);

    // A resume right away: a full replay, then live to the end. A drop in the first few ms can
    // come before the prompt reached the agent: a 204 while the turn has not ended is retried.
    let resume;
    for (let tries = 0; ; tries++) {
      resume = await request(`${base}/api/sessions/${session}/chat/c/stream`, { timeoutMs: 15_000 });
      if (resume.status !== 204 || tries >= RESUME_TRIES) break;
      const over = (await demoLog(worker, session, "sent")).some((e) => e.frame?.type === "message.finalize");
      if (over) break;
      await sleep(RESUME_RETRY_MS);
    }
    trial.resumeStatus = resume.status;
    let resumedText = null;
    if (resume.status === 200) {
      const checked = checkStream(resume);
      problems.push(...checked.problems.map((p) => `resume: ${p}`));
      resumedText = checked.deltas.join("");
      if (checked.ending !== "finish") problems.push(`resume ended with ${checked.ending}`);
      if (checked.chunks[0]?.type !== "start") problems.push("resume did not start with start");
    } else if (resume.status === 204) {
      trial.resumedAfterEnd = true;
    } else {
      problems.push(`resume answered ${resume.status}`);
    }

    // The agent's side: the turn ended normally, with no abort.
    let sent = [];
    const until = Date.now() + FINISH_WITHIN_MS;
    while (Date.now() < until) {
      sent = await demoLog(worker, session, "sent");
      if (sent.some((e) => e.frame?.type === "message.finalize")) break;
      await sleep(100);
    }
    const finalize = sent.find((e) => e.frame?.type === "message.finalize")?.frame;
    const received = await demoLog(worker, session, "received");
    trial.aborts = received.filter((e) => e.frame?.type === "abort").length;
    trial.prompts = received.filter((e) => e.frame?.type === "prompt").length;
    if (trial.aborts) problems.push(`${trial.aborts} abort(s) reached the agent`);
    if (trial.prompts !== 1) problems.push(`${trial.prompts} prompts reached the agent`);
    trial.completed = finalize?.reason === "end_turn";
    if (!trial.completed) problems.push(`the turn did not complete (${finalize?.reason ?? "no finalize"})`);
    if (resumedText !== null && finalize && resumedText !== finalize.finalText) {
      problems.push(`the resume rebuilt ${resumedText.length} chars, the agent sent ${finalize.finalText?.length}`);
    }
    trial.resumable = resume.status === 200 && problems.length === 0;

    // The history then holds the whole message.
    const history = await request(`${base}/api/sessions/${session}/messages`, { timeoutMs: 10_000 });
    const messages = history.status === 200 ? JSON.parse(history.text) : [];
    const assistant = messages.find((m) => m.role === "assistant" && m.id === finalize?.turnId);
    const historyText = assistant?.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
    if (historyText !== finalize?.finalText) problems.push("the history lacks the finished message");

    const requestId = received.find((e) => e.frame?.type === "prompt")?.frame.requestId;
    if (requestId && post.status !== null) {
      expectLog(worker, { headers: { "x-request-id": requestId }, status: post.status }, { outcome: "detached", label: "detached drop" });
    }
    trial.problems = problems;
    return trial;
  });

  const ok = trials.filter((t) => !t.thrown && t.problems.length === 0);
  const aborts = trials.reduce((n, t) => n + (t.aborts ?? 0), 0);
  const completed = trials.filter((t) => t.completed).length;
  const resumable = trials.filter((t) => t.resumable).length;
  const afterEnd = trials.filter((t) => t.resumedAfterEnd).length;
  const failures = trials
    .map((t, i) => ({ i, t }))
    .filter(({ t }) => t.thrown || t.problems.length)
    .map(({ i, t }) => `detached drop #${i} (${t.session}, after ${t.dropMs} ms): ${t.thrown ?? t.problems.join("; ")}`);
  return {
    name: "detach",
    figures: [
      { figure: `detached drops at random points of "${PROMPT}" (${MIN_DROP_MS}–${MAX_DROP_MS} ms)`, n: count, value: `${trials.filter((t) => t.dropped).length} dropped` },
      { figure: "aborts that reached the agent", n: count, value: String(aborts), pass: aborts === 0 },
      { figure: "turns that ran to their end", n: count, value: `${completed}/${count}`, pass: completed === count },
      { figure: "resumed right after the drop: full replay to finish, the agent's exact text", n: count,
        value: `${resumable}/${count}${afterEnd ? ` (${afterEnd} already over: 204)` : ""}`, pass: resumable === count },
      { figure: "drops without a fault (incl. the finished message in the history)", n: count, value: `${ok.length}/${count}`, pass: ok.length === count },
    ],
    failures,
    detail: { prompt: PROMPT, trials },
  };
}
