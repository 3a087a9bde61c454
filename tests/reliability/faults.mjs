// 4. Faults of the agent (the Durable Object): each must end with a valid stream (framing, one
// ending, `[DONE]` last) or a JSON error, within its bound. Where the worker gives up on the
// agent (first-event and idle timeouts) the agent must also get exactly one `abort`.
import { chatBody } from "../e2e/harness.mjs";
import { request, checkStream, checkJsonError, sleep } from "./lib.mjs";

/** What the worker says in-band when the agent is silent too long (the lead's contract). */
export const TIMEOUT_TEXT = "the agent did not respond in time";
/** What the translator says when the agent's socket closes mid-turn (docs/reliability.md). */
const LOST_TEXT = "connection to the agent was lost";
/** Slack on every time bound: keep-alive ticks (250 ms) and scheduling on a busy machine (this
 * suite runs beside Chromium's tests in `npm test`). The bounds say which timer ended a turn, not
 * how fast: the suite's timeouts are 1 s, their defaults 30 s (FIRST_EVENT_TIMEOUT_MS) and 300 s
 * (IDLE_TIMEOUT_MS, docs/configuration.md), so a setting the worker ignored still fails. */
const SLACK_MS = 10_000;

const lines = (frames) => frames.map((f) => (typeof f === "string" ? f : JSON.stringify(f))).join("\n");
const replay = (frames) => `/replay\n${lines(frames)}`;

/**
 * A text-delta frame of `bytes` bytes of UTF-8 (exactly, for a 1-byte `fill`; for a 2-byte one,
 * `bytes` or one more).
 */
function deltaFrameOfSize(turnId, bytes, fill) {
  const shell = Buffer.byteLength(JSON.stringify({ type: "message.part.text-delta", turnId, delta: "" }));
  const each = Buffer.byteLength(fill);
  return JSON.stringify({ type: "message.part.text-delta", turnId, delta: fill.repeat(Math.ceil((bytes - shell) / each)) });
}

export function faultCases(ctx) {
  const { vars } = ctx;
  const firstEventMs = Number(vars.FIRST_EVENT_TIMEOUT_MS);
  const idleMs = Number(vars.IDLE_TIMEOUT_MS);
  const maxFrame = Number(vars.MAX_FRAME_BYTES);
  const atLimit = deltaFrameOfSize("o1", maxFrame, "a");
  const overLimit = deltaFrameOfSize("o1", maxFrame + 1, "b");
  const huge = deltaFrameOfSize("o1", maxFrame * 2, "c");
  // Over the limit in bytes, well under it in characters (and UTF-16 units): a limit counted
  // in characters would let it through.
  const overInBytes = deltaFrameOfSize("o1", maxFrame + 1, "é");

  // ~1.5 ms a replayed line: 3,000 lines keep the agent talking for ~4 s without a message.create.
  const chatter = Array.from({ length: 3000 }, () => ({ type: "agentStatus", status: "idle" }));

  return [
    {
      name: "agent answers without a WebSocket (nows-)", session: "nows", prompt: "hi",
      boundMs: 10_000 + SLACK_MS, expect: { error: { status: 502, code: "agent_bad_response" } }, log: { outcome: "agent_bad_response" },
    },
    {
      name: "agent's stub throws (throw-)", session: "throw", prompt: "hi",
      boundMs: 10_000 + SLACK_MS, expect: { error: { status: 503, code: "agent_unavailable" } }, log: { outcome: "agent_unavailable" },
    },
    {
      name: "/drop: socket closed 1011 mid-turn", prompt: "/drop", boundMs: 1000 + SLACK_MS,
      expect: { ending: "error", errorText: LOST_TEXT, deltas: ["w1", " w2", " w3"] }, log: { outcome: "connection_lost" },
    },
    {
      name: `/hang: silent after message.create (IDLE_TIMEOUT_MS=${idleMs})`, prompt: "/hang",
      minMs: idleMs, boundMs: idleMs + SLACK_MS, abort: true,
      expect: { ending: "error", errorText: TIMEOUT_TEXT, started: true }, log: { outcome: "timeout" },
    },
    {
      name: `no message.create, agent chatters (FIRST_EVENT_TIMEOUT_MS=${firstEventMs})`, prompt: replay(chatter),
      minMs: firstEventMs, boundMs: firstEventMs + SLACK_MS, abort: true,
      expect: { ending: "error", errorText: TIMEOUT_TEXT, started: false }, log: { outcome: "timeout" },
    },
    {
      name: `/slow 6 ${Math.round(idleMs * 0.4)}: slower than nothing, under the idle timeout (control)`,
      prompt: `/slow 6 ${Math.round(idleMs * 0.4)}`, boundMs: 6 * idleMs * 0.4 + SLACK_MS,
      expect: { ending: "finish", deltas: ["w1", " w2", " w3", " w4", " w5", " w6"] }, log: { outcome: "finished" },
    },
    {
      name: "garbage frames between good ones (/replay)",
      prompt: replay([
        { type: "message.create", turnId: "g1" },
        "not json",
        '{"type":5}',
        "[1,2,3]",
        "null",
        '"a string"',
        "{}",
        '{"type":"message.part.text-delta"}',
        { type: "message.part.text-delta", turnId: "g1", delta: "ok1" },
        `${"[".repeat(5000)}${"]".repeat(5000)}`,
        '{"type":"message.part.text-delta","turnId":"g1","delta":"\\ud800"}',
        '{"type":"message.part.tool-update","turnId":"g1"}',
        '{"type":"message.part.text-delta","turnId":"g1","delta":"trunc',
        { type: "some.domain.event", x: [1, { y: null }] },
        { type: "message.part.text-delta", turnId: "g1", delta: " ok2 ✓" },
        { type: "message.finalize", turnId: "g1", reason: "end_turn" },
      ]),
      boundMs: 1000 + SLACK_MS,
      expect: { ending: "finish", deltasInclude: ["ok1", " ok2 ✓"], deltasExclude: ["trunc"] },
      // not json, {"type":5}, [1,2,3], null, "a string", {}, a delta without fields, the nesting,
      // the tool-update without fields, the truncated line: ten at least (the surrogate may pass).
      log: { outcome: "finished", skippedFramesAtLeast: 10 },
    },
    {
      name: `a frame at MAX_FRAME_BYTES=${maxFrame} kept, the first one over it ends the stream in-band (/replay)`,
      prompt: replay([
        { type: "message.create", turnId: "o1" },
        { type: "message.part.text-delta", turnId: "o1", delta: "before" },
        atLimit,
        overLimit,
        huge,
        overInBytes,
        { type: "message.part.text-delta", turnId: "o1", delta: "after" },
        { type: "message.finalize", turnId: "o1", reason: "end_turn" },
      ]),
      boundMs: 2000 + SLACK_MS,
      expect: { ending: "error", errorText: "the agent sent a message larger than the limit", deltas: ["before", JSON.parse(atLimit).delta] },
      log: { outcome: "frame_too_large", skippedFramesAtLeast: 1 },
    },
    {
      name: "socket closed 1000 mid-turn, tool open (/replay without an ending)",
      prompt: replay([
        { type: "message.create", turnId: "l1" },
        { type: "message.part.text-delta", turnId: "l1", delta: "partial" },
        { type: "message.part.tool-update", turnId: "l1", callId: "c1", toolName: "ls", status: "running", args: { path: "/" } },
      ]),
      boundMs: 1000 + SLACK_MS,
      expect: { ending: "error", errorText: LOST_TEXT, deltas: ["partial"] }, log: { outcome: "connection_lost" },
    },
    {
      name: "/error TEXT: the agent's own error",
      prompt: "/error the model is overloaded", boundMs: 1000 + SLACK_MS,
      expect: { ending: "error", errorText: "the model is overloaded" }, log: { outcome: "agent_error" },
    },
    {
      name: "agent cancels the turn itself (finalize canceled)",
      prompt: replay([
        { type: "message.create", turnId: "k1" },
        { type: "message.part.tool-update", turnId: "k1", callId: "c1", toolName: "ls", status: "pending" },
        { type: "message.finalize", turnId: "k1", reason: "canceled" },
      ]),
      boundMs: 1000 + SLACK_MS,
      expect: { ending: "abort" }, log: { outcome: "canceled" },
    },
  ];
}

export async function faults(ctx) {
  const { worker, demoLog, newSession, expectLog } = ctx;
  const cases = faultCases(ctx);
  const results = await Promise.all(cases.map(async (c) => {
    const session = newSession(c.session ?? "rel-fault");
    const res = await request(`${worker.base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody(c.prompt),
      timeoutMs: c.boundMs + 10_000,
    });
    const elapsed = res.endedAt - res.startedAt;
    expectLog(worker, res, { label: c.name, ...c.log });
    const problems = [];
    let outcome;
    if (c.expect.error) {
      const checked = checkJsonError(res, c.expect.error);
      problems.push(...checked.problems);
      outcome = `${res.status} ${checked.code}`;
    } else {
      const stream = checkStream(res);
      problems.push(...stream.problems);
      outcome = res.status === 200 ? `stream, ${stream.ending}${stream.errorTexts.length ? `: "${stream.errorTexts.join("; ")}"` : ""}` : `${res.status}`;
      const e = c.expect;
      if (stream.ending !== e.ending) problems.push(`ending ${stream.ending}, expected ${e.ending}`);
      if (e.errorText !== undefined && stream.errorTexts.join("; ") !== e.errorText) {
        problems.push(`error text ${JSON.stringify(stream.errorTexts)}, expected ${JSON.stringify(e.errorText)}`);
      }
      if (e.started !== undefined && (stream.chunks[0]?.type === "start") !== e.started) {
        problems.push(e.started ? "the turn had started: expected start … finish-step" : "the turn never started: expected only the ending");
      }
      if (e.deltas && JSON.stringify(stream.deltas) !== JSON.stringify(e.deltas)) {
        problems.push(`deltas ${JSON.stringify(stream.deltas.map((d) => (d.length > 20 ? `${d.slice(0, 8)}…(${d.length})` : d)))}`);
      }
      for (const d of e.deltasInclude ?? []) if (!stream.deltas.includes(d)) problems.push(`delta ${JSON.stringify(d)} missing`);
      for (const d of e.deltasExclude ?? []) if (stream.deltas.some((x) => x.includes(d))) problems.push(`delta ${JSON.stringify(d)} from a broken frame got through`);
      if (res.status === 200) {
        const received = await demoLog(worker, session, "received");
        const prompt = received.find((x) => x.frame?.type === "prompt");
        if (prompt?.frame?.requestId !== res.headers["x-request-id"]) {
          problems.push(`x-request-id ${res.headers["x-request-id"]} != prompt's requestId ${prompt?.frame?.requestId}`);
        }
      }
    }
    if (elapsed > c.boundMs) problems.push(`took ${elapsed} ms, bound ${c.boundMs} ms`);
    if (c.minMs && elapsed < c.minMs - 50) problems.push(`ended after ${elapsed} ms, before its ${c.minMs} ms timeout`);
    let aborts = null;
    if (c.abort) {
      // The worker gave up: the agent must hear exactly one abort with the prompt's requestId.
      await sleep(500);
      const received = await demoLog(worker, session, "received");
      const prompt = received.find((x) => x.frame?.type === "prompt");
      const list = received.filter((x) => x.frame?.type === "abort");
      aborts = list.length;
      if (list.length !== 1 || list[0].frame.requestId !== prompt?.frame?.requestId) {
        problems.push(`agent received ${list.length} abort(s) ${JSON.stringify(list.map((x) => x.frame.requestId))}, expected one with ${prompt?.frame?.requestId}`);
      }
    }
    return { name: c.name, session, requestId: res.headers?.["x-request-id"] ?? null, outcome, elapsedMs: elapsed, boundMs: c.boundMs, aborts, problems };
  }));

  const ok = results.filter((r) => !r.problems.length);
  return {
    name: "faults",
    figures: [
      { figure: "agent faults ending validly within their bound", n: results.length, value: `${ok.length}/${results.length}`, pass: ok.length === results.length },
      { figure: "timeouts: the agent got exactly one abort", n: results.filter((r) => r.aborts !== null).length,
        value: `${results.filter((r) => r.aborts === 1).length}/${results.filter((r) => r.aborts !== null).length}`,
        pass: results.filter((r) => r.aborts !== null).every((r) => r.aborts === 1) },
    ],
    table: results.map((r) => ({ fault: r.name, outcome: r.outcome, ms: r.elapsedMs, bound: r.boundMs, ok: r.problems.length === 0 })),
    failures: results.filter((r) => r.problems.length).map((r) => `${r.name} (${r.session}): ${r.problems.join("; ")}`),
    detail: { results },
  };
}
