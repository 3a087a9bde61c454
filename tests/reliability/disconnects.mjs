// 1. Disconnects at random points of `/slow` turns: every POST whose prompt reached the agent
// must reach it as exactly one `abort` with that prompt's requestId. Reports how long the abort
// took from the client's `AbortController.abort()` to the agent's receive time (both on this
// machine's clock: workerd's Date.now() and Node's).
import { chatBody } from "../e2e/harness.mjs";
import { request, sleep, summary, pool } from "./lib.mjs";

/** The turn: 100 deltas 30 ms apart, ~3 s, far longer than the latest disconnect. */
const PROMPT = "/slow 100 30";
/** Latest disconnect, ms after the POST starts. */
const MAX_ABORT_AFTER_MS = 1500;
/**
 * Early disconnects fall in the first 40 ms, while the worker reads the body and connects to the
 * agent. The first batch (as many as run at once) is all early and meets a worker that has just
 * started (cold isolate, new agents); after it, a tenth of the rest are early.
 */
const EARLY_SHARE = 0.1;
const EARLY_MS = 40;
/** How long the agent's log is polled for the abort after the client left. */
const POLL_FOR_MS = 3000;
const POLL_EVERY_MS = 50;
/** After the abort was seen: wait this long, then read the log again, to catch a second abort. */
const SETTLE_MS = 700;

export async function disconnects(ctx, { count, concurrency }) {
  const { worker, rand, demoLog, newSession, expectLog } = ctx;
  // Draw every disconnect time first, so a seed always gives the same schedule.
  const cold = Math.min(concurrency, count);
  const early = cold + Math.round((count - cold) * EARLY_SHARE);
  const delays = Array.from({ length: count }, (_, i) =>
    i < early ? rand() * EARLY_MS : EARLY_MS + rand() * (MAX_ABORT_AFTER_MS - EARLY_MS));

  const trials = await pool(count, concurrency, async (i) => {
    const session = newSession("rel-disc");
    const controller = new AbortController();
    let abortedAt = null;
    let phase = "before headers";
    const timer = setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, delays[i]);
    const res = await request(`${worker.base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody(PROMPT),
      signal: controller.signal,
      timeoutMs: 15_000,
      onChunk: (_piece, r) => {
        if (r.text.includes('"type":"text-delta"')) phase = "mid-stream";
        else phase = "before first delta";
      },
    });
    if (res.headersAt !== null && phase === "before headers") phase = "before first delta";
    clearTimeout(timer);

    const trial = { session, cold: i < cold, delayMs: Math.round(delays[i]), phase, status: res.status, requestIdHeader: res.headers?.["x-request-id"] ?? null };
    if (abortedAt === null) {
      // The turn ended (or failed) before the disconnect: nothing to abort.
      trial.outcome = res.networkError || res.timedOut ? "request failed" : "ended before the disconnect";
      trial.problems = [`no disconnect happened: ${res.networkError ?? (res.timedOut ? "timed out" : `status ${res.status}`)}`];
      return trial;
    }

    // Poll until the abort shows up (or the bound passes), then once more after a pause.
    let received = [];
    let seenAt = null;
    const pollUntil = abortedAt + POLL_FOR_MS;
    while (Date.now() < pollUntil) {
      received = await demoLog(worker, session, "received");
      if (received.some((e) => e.frame?.type === "abort")) {
        seenAt = Date.now();
        break;
      }
      await sleep(POLL_EVERY_MS);
    }
    await sleep(Math.max(0, Math.max(abortedAt, seenAt ?? 0) + SETTLE_MS - Date.now()));
    received = await demoLog(worker, session, "received");
    const prompts = received.filter((e) => e.frame?.type === "prompt");
    const aborts = received.filter((e) => e.frame?.type === "abort");
    trial.prompts = prompts.length;
    trial.aborts = aborts.length;
    const problems = [];
    if (prompts.length === 0) {
      trial.outcome = "never reached the agent";
      if (aborts.length) problems.push(`${aborts.length} abort(s) without a prompt`);
      if (res.status !== null) problems.push(`answered ${res.status} but the agent got no prompt`);
    } else if (prompts.length > 1) {
      trial.outcome = "several prompts";
      problems.push(`${prompts.length} prompts for one POST`);
    } else {
      const requestId = prompts[0].frame.requestId;
      trial.requestId = requestId;
      // The worker's log record of the POST, found by the prompt's requestId even when the client
      // left before the headers: one, with outcome client_gone.
      expectLog(worker, { headers: { "x-request-id": requestId }, status: res.status ?? undefined }, { outcome: "client_gone", label: `disconnect ${trial.phase}` });
      if (aborts.length !== 1) problems.push(`${aborts.length} aborts reached the agent`);
      const ours = aborts.filter((a) => a.frame.requestId === requestId);
      if (aborts.length && ours.length !== aborts.length) problems.push(`abort requestId ${aborts.map((a) => a.frame.requestId)} != prompt's ${requestId}`);
      if (ours.length) trial.abortDelayMs = ours[0].at - abortedAt;
      trial.outcome = problems.length ? "wrong aborts" : "aborted once";
      // The agent's side (reported): did its turn end canceled, and did it stop sending? The
      // sent log lives in the object's memory only, so it is read now, before it can be evicted.
      const sent = await demoLog(worker, session, "sent");
      const deltas = sent.filter((e) => e.frame?.type === "message.part.text-delta");
      trial.deltasSent = deltas.length;
      trial.canceled = sent.some((e) => e.frame?.type === "message.finalize" && e.frame.reason === "canceled");
      if (ours.length) trial.deltasAfterAbort = deltas.filter((d) => d.at > ours[0].at).length;
      if (res.headersAt !== null && trial.requestIdHeader !== requestId) {
        problems.push(`x-request-id ${trial.requestIdHeader} != prompt's requestId ${requestId}`);
      }
    }
    trial.problems = problems;
    return trial;
  });

  const thrown = trials.filter((t) => t.thrown);
  const ok = trials.filter((t) => !t.thrown && t.problems.length === 0);
  const reached = trials.filter((t) => t.prompts >= 1);
  const onceOk = trials.filter((t) => t.outcome === "aborted once");
  const delays2 = onceOk.map((t) => t.abortDelayMs);
  const byPhase = {};
  for (const t of trials) byPhase[t.phase ?? "thrown"] = (byPhase[t.phase ?? "thrown"] ?? 0) + 1;
  const idChecked = trials.filter((t) => t.prompts === 1 && t.status !== null);
  const idOk = idChecked.filter((t) => t.requestIdHeader === t.requestId);
  const coldReached = trials.filter((t) => t.cold && t.prompts >= 1);
  const coldOk = coldReached.filter((t) => t.outcome === "aborted once");
  const withPrompt = trials.filter((t) => t.prompts === 1);
  const failures = trials
    .map((t, i) => ({ i, t }))
    .filter(({ t }) => t.thrown || t.problems.length)
    .map(({ i, t }) => `disconnect #${i} (${t.session}, after ${t.delayMs} ms, ${t.phase}): ${t.thrown ?? t.problems.join("; ")}`);

  return {
    name: "disconnects",
    figures: [
      { figure: `disconnects at random points of "${PROMPT}" (0–${MAX_ABORT_AFTER_MS} ms)`, n: count,
        value: Object.entries(byPhase).map(([k, v]) => `${v} ${k}`).join(", ") },
      { figure: "prompt reached the agent", n: count, value: `${reached.length}/${count}` },
      { figure: "reached the agent as exactly one abort with its requestId", n: reached.length,
        value: `${onceOk.length}/${reached.length}`, pass: onceOk.length === reached.length && thrown.length === 0 },
      { figure: `of them, first batch on a just-started worker (all at 0–${EARLY_MS} ms)`, n: coldReached.length,
        value: `${coldOk.length}/${coldReached.length}`, pass: coldOk.length === coldReached.length },
      { figure: "disconnects without a fault (incl. no stray abort)", n: count, value: `${ok.length}/${count}`, pass: ok.length === count },
      { figure: "x-request-id = the prompt's requestId", n: idChecked.length, value: `${idOk.length}/${idChecked.length}`, pass: idOk.length === idChecked.length },
      { figure: "abort delay client→agent ms (min/p50/p99/worst)", n: delays2.length, value: fmtSummary(summary(delays2)) },
      { figure: "agent's turn ended canceled (the demo agent's side, reported)", n: withPrompt.length,
        value: `${withPrompt.filter((t) => t.canceled).length}/${withPrompt.length}` },
      { figure: "deltas the agent sent after the abort arrived (reported)", n: withPrompt.length,
        value: String(withPrompt.reduce((a, t) => a + (t.deltasAfterAbort ?? 0), 0)) },
      { figure: "deltas the agent sent for turns that got no abort (reported)", n: withPrompt.filter((t) => t.aborts === 0).length,
        value: String(withPrompt.filter((t) => t.aborts === 0).reduce((a, t) => a + (t.deltasSent ?? 0), 0)) },
    ],
    failures,
    detail: { prompt: PROMPT, delays: summary(delays), abortDelayMs: summary(delays2), byPhase, trials },
  };
}

export function fmtSummary(s) {
  return s.n ? `${s.min} / ${s.p50} / ${s.p99} / ${s.max}` : "–";
}
