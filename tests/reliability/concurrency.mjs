// 2. Concurrent streams against the demo agent, all started at once: each must complete with a
// valid stream carrying every text delta, in order. `/slow` turns are compared with what the
// agent logged as sent (GET /demo/sessions/:id/sent); `/flood` deltas are not logged by the
// agent, so they are compared with the numbered deltas it is known to send (`w1`, ` w2`, …).
import { chatBody } from "../e2e/harness.mjs";
import { request, checkStream, summary, pool } from "./lib.mjs";
import { fmtSummary } from "./disconnects.mjs";

const numbered = (n) => Array.from({ length: n }, (_, i) => (i === 0 ? "w1" : ` w${i + 1}`));

/** Counts the expected deltas missing from `got` (as a multiset), and whether order held. */
function compare(expected, got) {
  const counts = new Map();
  for (const d of got) counts.set(d, (counts.get(d) ?? 0) + 1);
  let lost = 0;
  for (const d of expected) {
    const c = counts.get(d) ?? 0;
    if (c === 0) lost += 1;
    else counts.set(d, c - 1);
  }
  const extra = [...counts.values()].reduce((a, b) => a + b, 0);
  const inOrder = lost === 0 && extra === 0 && expected.every((d, i) => got[i] === d);
  return { lost, extra, inOrder };
}

async function wave(ctx, { label, streams, prompt, deltas, fromSentLog }) {
  const { worker, demoLog, newSession, expectLog } = ctx;
  let open = 0;
  let peak = 0;
  const sessions = Array.from({ length: streams }, () => newSession(`rel-conc-${label}`));
  const startedAt = Date.now();
  // All at once: every POST is issued before any is awaited.
  const results = await Promise.all(sessions.map(async (session) => {
    let counted = false;
    const res = await request(`${worker.base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody(prompt),
      timeoutMs: 60_000,
      fresh: true,
      onChunk: () => {
        if (!counted) {
          counted = true;
          open += 1;
          peak = Math.max(peak, open);
        }
      },
    });
    if (counted) open -= 1;
    expectLog(worker, res, { outcome: "finished", label: `concurrent ${label}` });
    return { session, res };
  }));
  const wallMs = Date.now() - startedAt;

  const checked = await pool(results.length, 16, async (i) => {
    const { session, res } = results[i];
    const stream = checkStream(res);
    const problems = [...stream.problems];
    let expected = numbered(deltas);
    let sentCount = null;
    if (fromSentLog && res.status === 200) {
      const sent = await demoLog(worker, session, "sent");
      expected = sent.filter((e) => e.frame?.type === "message.part.text-delta").map((e) => e.frame.delta);
      sentCount = expected.length;
      if (sentCount !== deltas) problems.push(`the agent logged ${sentCount} deltas sent, not ${deltas}`);
    }
    const { lost, extra, inOrder } = compare(expected, stream.deltas);
    if (lost) problems.push(`${lost} deltas lost`);
    if (extra) problems.push(`${extra} deltas not sent by the agent (duplicated or foreign)`);
    if (!lost && !extra && !inOrder) problems.push("deltas out of order");
    if (stream.errorTexts.length) problems.push(`in-band error: ${stream.errorTexts.join("; ")}`);
    if (stream.ending !== "finish") problems.push(`ending ${stream.ending}`);
    if (!res.headers?.["x-request-id"]) problems.push("no x-request-id");
    return {
      session, status: res.status, expected: expected.length, received: stream.deltas.length, lost, extra, problems,
      ttfbMs: res.firstByteAt ? res.firstByteAt - res.startedAt : null, durationMs: res.endedAt - res.startedAt,
      requestIdHeader: res.headers?.["x-request-id"] ?? null,
    };
  });

  // x-request-id must be the prompt's requestId: checked for every stream (one log read each).
  const idOk = await pool(checked.length, 16, async (i) => {
    const c = checked[i];
    if (c.status !== 200) return false;
    const received = await demoLog(worker, c.session, "received");
    const prompt = received.find((e) => e.frame?.type === "prompt");
    const ok = prompt?.frame?.requestId === c.requestIdHeader;
    if (!ok) c.problems.push(`x-request-id ${c.requestIdHeader} != prompt's requestId ${prompt?.frame?.requestId}`);
    return ok;
  });

  const completed = checked.filter((c) => c.status === 200 && c.problems.every((p) => p.startsWith("x-request-id")));
  const errors = checked.filter((c) => c.problems.some((p) => !p.startsWith("x-request-id")));
  const expectedTotal = checked.reduce((a, c) => a + c.expected, 0);
  // A stream that failed outright lost every delta it should have carried.
  const lostTotal = checked.reduce((a, c) => a + c.lost, 0);
  const receivedTotal = checked.reduce((a, c) => a + c.received, 0);
  const ttfb = checked.map((c) => c.ttfbMs).filter((v) => v !== null);
  const durations = checked.map((c) => c.durationMs);
  const idCount = idOk.filter(Boolean).length;
  return {
    figures: [
      { figure: `${label}: "${prompt}" × ${streams} at once: completed`, n: streams, value: `${completed.length}/${streams}`, pass: completed.length === streams },
      { figure: `${label}: peak streams receiving at once`, n: streams, value: String(peak) },
      { figure: `${label}: text deltas received / ${fromSentLog ? "sent (agent's log)" : "sent (numbered)"}`, n: streams,
        value: `${receivedTotal}/${expectedTotal}` },
      { figure: `${label}: chunks lost`, n: streams, value: String(lostTotal), pass: lostTotal === 0 },
      { figure: `${label}: streams with errors`, n: streams, value: String(errors.length), pass: errors.length === 0 },
      { figure: `${label}: x-request-id = prompt's requestId`, n: streams, value: `${idCount}/${streams}`, pass: idCount === streams },
      { figure: `${label}: first byte ms (min/p50/p99/worst)`, n: ttfb.length, value: fmtSummary(summary(ttfb)) },
      { figure: `${label}: stream duration ms (min/p50/p99/worst); wall ${wallMs} ms`, n: durations.length, value: fmtSummary(summary(durations)) },
    ],
    failures: checked.filter((c) => c.problems.length).map((c) => `${label} ${c.session}: ${c.problems.join("; ")}`),
    detail: { prompt, streams, deltas, peak, wallMs, ttfbMs: summary(ttfb), durationMs: summary(durations), failedStreams: checked.filter((c) => c.problems.length) },
  };
}

export async function concurrency(ctx, { streams }) {
  const waves = [
    await wave(ctx, { label: "slow", streams, prompt: "/slow 40 50", deltas: 40, fromSentLog: true }),
    await wave(ctx, { label: "flood", streams, prompt: "/flood 500", deltas: 500, fromSentLog: false }),
  ];
  return {
    name: "concurrency",
    figures: waves.flatMap((w) => w.figures),
    failures: waves.flatMap((w) => w.failures),
    detail: { slow: waves[0].detail, flood: waves[1].detail },
  };
}
