// 7. Sockets that die with no close frame (docs/agent-protocol.md, R-pong; docs/reliability.md):
// the failing fixture agent's `frozen-` sockets answer the worker's pings, and a prompt's first
// frames, for FROZEN_AFTER_MS, then nothing, and never close (tests/fixtures/agents/failing.js).
// Each trial opens a feed or a turn on one and times its end from the socket's freeze: a feed must
// end (its client reconnects), a turn must end in-band with the lost connection's error, each
// within two ping periods of the socket's last frame. The figure: the time to find a dead socket.
import { chatBody } from "../e2e/harness.mjs";
import { openFeed } from "../e2e/feed.mjs";
import { request, checkStream, pool, sleep } from "./lib.mjs";

/** FROZEN_AFTER_MS of tests/fixtures/agents/failing.js. */
const FROZEN_AFTER_MS = 1_500;
/** Slack on the bound: timers and a busy machine (this suite runs beside Chromium's tests in
 * `npm test`). The bound says which ping found the socket dead, not how fast: at the suite's
 * LIVENESS_PING_MS (500) it is 1 s plus this, at the default (30 s) two periods are 60 s, so a
 * setting the worker ignored still fails. */
const SLACK_MS = 10_000;
/** What the translator says when the agent's socket is lost (CONNECTION_LOST, crates/core). */
const LOST_TEXT = "connection to the agent was lost";

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return sorted.length ? `${sorted[0]} / ${at(0.5)} / ${sorted.at(-1)} ms` : "–";
};

export async function liveness(ctx, { trials }) {
  const { worker, newSession, expectLog, vars } = ctx;
  const pingMs = Number(vars.LIVENESS_PING_MS);
  const bound = 2 * pingMs;
  const failures = [];

  const feeds = await pool(trials, 10, async () => {
    const opened = Date.now();
    const feed = await openFeed(worker.base, newSession("frozen"));
    if (feed.status !== 200) return { ok: false, why: `feed answered ${feed.status}` };
    const deadline = opened + FROZEN_AFTER_MS + bound + SLACK_MS;
    while (!feed.ended && Date.now() < deadline) await sleep(10);
    if (!feed.ended) {
      feed.close();
      return { ok: false, why: `still open ${deadline - opened} ms after it opened` };
    }
    return { ok: true, ms: Date.now() - opened - FROZEN_AFTER_MS };
  });

  const turns = await pool(trials, 10, async () => {
    const sent = Date.now();
    const res = await request(`${worker.base}/api/sessions/${newSession("frozen")}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody("hello"),
      timeoutMs: FROZEN_AFTER_MS + bound + SLACK_MS,
    });
    const took = Date.now() - sent;
    expectLog(worker, res, { label: "a turn on a frozen socket", outcome: "connection_lost" });
    const { problems, errorTexts } = checkStream(res);
    if (errorTexts.join() !== LOST_TEXT) problems.push(`error ${JSON.stringify(errorTexts)}, expected ${LOST_TEXT}`);
    if (problems.length) return { ok: false, why: problems.join("; ") };
    return { ok: true, ms: took - FROZEN_AFTER_MS };
  });

  const figure = (what, results) => {
    const ok = results.filter((r) => r.ok);
    for (const r of results.filter((x) => !x.ok)) failures.push(`${what}: ${r.why}`);
    const late = ok.filter((r) => r.ms > bound + SLACK_MS).length;
    return {
      figure: `time to find a dead socket, ${what}: after its freeze (min / p50 / worst; bound ${bound} ms, LIVENESS_PING_MS ${pingMs})`,
      n: results.length,
      value: `${ok.length}/${results.length} ended; ${stats(ok.map((r) => r.ms))}`,
      pass: ok.length === results.length && late === 0,
    };
  };
  return { name: "liveness", figures: [figure("a feed", feeds), figure("a turn", turns)], failures };
}
