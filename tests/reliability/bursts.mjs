// Bursts of disconnects: many clients start a turn at once, each on a connection and a session of
// its own, and leave together (or at random times) while their turns run. Every prompt that
// reached the agent must reach it as exactly one `abort` with that prompt's requestId. Reports the
// time from each client's drop to its abort at the agent (p50, p99, worst).
//
// Why bursts: the runtime learns that a client is gone only when it next writes to it, and a
// runtime that misses some disconnects of a burst (seen with workerd 1.20260426: 64 of 100
// aborts) passes every test that drops one client at a time.
import http from "node:http";
import { chatBody } from "../e2e/harness.mjs";
import { sleep, summary } from "./lib.mjs";

/** The turn: 40 deltas 100 ms apart, ~4 s, longer than the latest drop (2 s after the headers). */
const PROMPT = "/slow 40 100";
/** How long after the last drop the agent's logs are polled for the aborts. 6 s: the turns are
 * over by then (4 s each), so an abort that has not come will not. */
const POLL_FOR_MS = 6000;
const POLL_EVERY_MS = 250;
/** After every abort was seen: wait this long, then read the logs again, to catch a second one. */
const SETTLE_MS = 700;
/** The logs are read this many sessions at a time (each read is a request to the worker). */
const READ_LANES = 20;
/** The bound on one client's request: its turn lasts ~4 s. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The schedules: `{ label, clients, leaveMs(rand) }`, where `leaveMs` draws how long after its
 * response headers a client closes its connection.
 */
export const BURSTS = {
  quick: [{ label: "100 leaving 300 ms after the headers", clients: 100, leaveMs: () => 300 }],
  full: [
    { label: "100 leaving 300 ms after the headers", clients: 100, leaveMs: () => 300 },
    { label: "200 leaving 300 ms after the headers", clients: 200, leaveMs: () => 300 },
    { label: "200 leaving at random, 0–2 s after the headers", clients: 200, leaveMs: (rand) => rand() * 2000 },
  ],
};

/** One client: POSTs the turn on a connection of its own and destroys that connection `leaveMs`
 * after the response headers. Resolves with { status, headersAt, droppedAt, error }. */
function leavingClient(url, body, leaveMs) {
  return new Promise((resolve) => {
    const out = { status: null, headersAt: null, droppedAt: null, error: null };
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(bound);
      resolve(out);
    };
    const req = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      agent: false,
    });
    const bound = setTimeout(() => {
      out.error ??= "timed out";
      req.destroy();
      done();
    }, REQUEST_TIMEOUT_MS);
    req.on("response", (res) => {
      out.headersAt = Date.now();
      out.status = res.statusCode;
      res.resume();
      setTimeout(() => {
        out.droppedAt = Date.now();
        // The whole connection goes, as when a tab closes: no more reads, the socket closed.
        req.destroy();
        done();
      }, leaveMs);
      res.on("end", () => {
        out.error ??= "the turn ended before the client left";
        done();
      });
    });
    req.on("error", (err) => {
      if (out.droppedAt === null) out.error ??= String(err?.code ?? err?.message ?? err);
      done();
    });
    req.end(body);
  });
}

/** Reads `session`'s received log of the demo agent; an unreadable log counts as empty. */
async function received(ctx, session) {
  try {
    return await ctx.demoLog(ctx.worker, session, "received");
  } catch {
    return null;
  }
}

/** Runs `task` over `items`, `READ_LANES` at a time. */
async function lanes(items, task) {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.min(READ_LANES, queue.length) }, async () => {
    while (queue.length) await task(queue.shift());
  }));
}

/** One burst: every client at once, then the agent's logs until every abort came or the bound. */
async function burst(ctx, { label, clients, leaveMs }) {
  const { worker, rand, newSession } = ctx;
  const plan = Array.from({ length: clients }, () => ({ session: newSession("rel-burst"), leaveMs: leaveMs(rand) }));
  const results = await Promise.all(plan.map(({ session, leaveMs: ms }) =>
    leavingClient(`${worker.base}/api/sessions/${session}/chat`, chatBody(PROMPT), ms)));
  const trials = plan.map((p, i) => ({ ...p, ...results[i], leaveMs: Math.round(p.leaveMs) }));
  const dropped = trials.filter((t) => t.droppedAt !== null);
  const lastDrop = Math.max(0, ...dropped.map((t) => t.droppedAt));

  // Poll until every dropped client's abort is there (or the bound passes), then once more.
  const logs = new Map();
  const pollUntil = lastDrop + POLL_FOR_MS;
  let waiting = dropped;
  while (waiting.length && Date.now() < pollUntil) {
    await lanes(waiting, async (t) => logs.set(t.session, await received(ctx, t.session)));
    waiting = waiting.filter((t) => !(logs.get(t.session) ?? []).some((e) => e.frame?.type === "abort"));
    if (waiting.length) await sleep(POLL_EVERY_MS);
  }
  await sleep(SETTLE_MS);
  await lanes(trials, async (t) => logs.set(t.session, await received(ctx, t.session)));

  const problems = [];
  const latencies = [];
  let reached = 0;
  let abortedOnce = 0;
  for (const t of trials) {
    const log = logs.get(t.session);
    if (log === null) {
      problems.push(`${t.session}: the agent's log could not be read`);
      continue;
    }
    const prompts = log.filter((e) => e.frame?.type === "prompt");
    const aborts = log.filter((e) => e.frame?.type === "abort");
    if (t.droppedAt === null) {
      problems.push(`${t.session}: the client did not leave (${t.error ?? `status ${t.status}`})`);
      continue;
    }
    if (prompts.length === 0) {
      if (aborts.length) problems.push(`${t.session}: ${aborts.length} abort(s) without a prompt`);
      if (t.status !== null) problems.push(`${t.session}: answered ${t.status} but the agent got no prompt`);
      continue;
    }
    reached++;
    const requestId = prompts[0].frame.requestId;
    const ours = aborts.filter((a) => a.frame.requestId === requestId);
    if (prompts.length !== 1 || aborts.length !== 1 || ours.length !== 1) {
      problems.push(`${t.session}: ${prompts.length} prompt(s), ${aborts.length} abort(s), ${ours.length} with the prompt's requestId (left ${t.leaveMs} ms after the headers)`);
      continue;
    }
    abortedOnce++;
    latencies.push(ours[0].at - t.droppedAt);
  }
  const late = summary(latencies);
  return {
    label, clients, reached, abortedOnce, problems, latency: late,
    figures: [
      { figure: `burst: ${label} ("${PROMPT}")`, n: clients, value: `${reached} prompts reached the agent` },
      { figure: "  each reached the agent as exactly one abort with its requestId", n: reached,
        value: `${abortedOnce}/${reached}`, pass: problems.length === 0 && abortedOnce === reached },
      { figure: "  drop → abort at the agent, ms (min / p50 / p99 / worst)", n: latencies.length,
        value: late.n ? `${late.min} / ${late.p50} / ${late.p99} / ${late.max}` : "–" },
    ],
  };
}

/** The section: each burst of the form's schedule in turn, on each of `ctx.workers` ([agent's
 * name, worker] pairs: the adapter in front of each agent). */
export async function bursts(ctx, { schedule }) {
  const runs = [];
  for (const [agent, worker] of ctx.workers) {
    for (const plan of schedule) runs.push(await burst({ ...ctx, worker }, { ...plan, label: `${plan.label}, ${agent}` }));
  }
  return {
    name: "bursts",
    figures: runs.flatMap((r) => r.figures),
    failures: runs.flatMap((r) => r.problems.map((p) => `${r.label}: ${p}`)),
    detail: { prompt: PROMPT, runs: runs.map(({ figures, ...rest }) => rest) },
  };
}
