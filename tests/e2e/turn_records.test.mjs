// The turn's record (docs/operations.md) in workerd: a turn of each outcome yields exactly one
// record with the right fields, in its request's one log line, and no token, secret or prompt text; the Analytics Engine dataset
// bound as TURN_ANALYTICS gets one point per record, in the documented layout (the harness binds
// one that logs what it is given: Miniflare's own drops every point); a worker without the
// binding writes the records and nothing else changes. Usage travels from the demo agent and the
// reference TypeScript agent into the record, the `finish` chunk's messageMetadata and the history.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, sleep } from "./harness.mjs";

const SECRET = "e2e-turn-records-secret-long-enough";
const TOKEN = hs256Jwt(SECRET, { sub: "alice", sessions: "*", exp: nowS() + 600 });
const headers = { "content-type": "application/json", authorization: `Bearer ${TOKEN}` };
// A short idle timeout, so that the timeout's record comes in a test's time.
const vars = { AUTH_MODE: "jwt", AUTH_SECRET: SECRET, IDLE_TIMEOUT_MS: "1500" };

// The blob and double each record key lands in (docs/operations.md, "The data point").
const BLOBS = ["turn.outcome", "error.type", "turn.trigger", "gen_ai.conversation.id", "user.id", "turn.id", "gen_ai.response.model", "turn.request_id"];
const TIMES = { 0: "gen_ai.server.time_to_first_token", 1: "turn.time_to_first_frame", 2: "gen_ai.client.operation.duration" };
const COUNTS = { 3: "gen_ai.usage.input_tokens", 4: "gen_ai.usage.output_tokens", 5: "turn.events", 6: "turn.chunks", 7: "turn.bytes", 8: "turn.tool_calls", 9: "turn.tool_errors" };

let worker;
let plain;
let typescript;
before(async () => {
  [worker, plain, typescript] = await Promise.all([
    startWorker({ vars, analytics: true }),
    startWorker({ vars }),
    startWorker({ agent: "typescript", analytics: true }),
  ]);
});
after(() => Promise.all([worker, plain, typescript].map((w) => w?.dispose())));

const post = (w, session, body, init = {}) => postChat(w.base, session, body, { headers, ...init });

/** The records of request `id`, once the stream's end has written one (or the deadline passed). */
async function recordsOf(w, id, deadline = Date.now() + 10_000) {
  let found = [];
  while (Date.now() < deadline) {
    found = w.turns.filter((r) => r["turn.request_id"] === id);
    if (found.length > 0) break;
    await sleep(25);
  }
  await sleep(100); // a second record, were there one, would have come by now
  return w.turns.filter((r) => r["turn.request_id"] === id);
}

/** Request `id`'s one record and its one data point, the point checked against the record. */
async function theRecord(w, id) {
  const records = await recordsOf(w, id);
  assert.equal(records.length, 1, `one record for ${id}: ${JSON.stringify(records)}`);
  const [record] = records;
  // The record is the request's one line: the request's keys, then the turn's.
  const lines = w.logs.filter((l) => l.requestId === id);
  assert.equal(lines.length, 1, `one line for ${id}`);
  assert.equal(lines[0], record, "the record is in the request's line");
  assert.deepEqual(
    [record.session, record.user, record.chunks, record.bytes],
    [record["gen_ai.conversation.id"], record["user.id"], record["turn.chunks"], record["turn.bytes"]],
  );
  assert.equal(Math.round(record["gen_ai.client.operation.duration"] * 1000), record.durationMs);
  const points = w.points.filter((p) => p.blobs?.[7] === id);
  if (w === plain) {
    assert.equal(points.length, 0);
    return record;
  }
  assert.equal(points.length, 1, `one data point for ${id}`);
  const [point] = points;
  assert.deepEqual(point.indexes, [record["user.id"] ?? record["gen_ai.conversation.id"]]);
  assert.deepEqual(point.blobs, BLOBS.map((key) => String(record[key] ?? "")));
  assert.equal(point.doubles.length, 12);
  for (const [i, key] of Object.entries(TIMES)) assert.equal(point.doubles[i], record[key] ?? -1, key);
  for (const [i, key] of Object.entries(COUNTS)) assert.equal(point.doubles[i], record[key] ?? 0, key);
  assert.equal(point.doubles[10], record["turn.agent_protocol"] ?? -1);
  assert.equal(point.doubles[11], record["gen_ai.usage.input_tokens"] === undefined ? 0 : 1);
  return record;
}

/** No text of the chat, no token, no secret in what was written. */
function clean(record, ...texts) {
  const line = JSON.stringify(record);
  for (const text of [TOKEN, SECRET, ...texts]) assert.ok(!line.includes(text), `the record holds ${text.slice(0, 20)}…`);
}

test("a finished turn: its record, its point, its usage in the client's finish and the history", { timeout: 30_000 }, async () => {
  const session = sessionId("rec-finished");
  const prompt = "tell me about the weather please";
  const response = await post(worker, session, chatBody(prompt));
  assert.equal(response.status, 200);
  const id = response.headers.get("x-request-id");
  const { text } = await readAll(response);
  const chunks = chunksOf(text);
  const start = chunks.find((c) => c.type === "start");
  const finish = chunks.find((c) => c.type === "finish");
  const deltas = chunks.filter((c) => c.type === "text-delta").length;

  const record = await theRecord(worker, id);
  assert.equal(record["event.name"], "turn");
  assert.equal(record["turn.outcome"], "finished");
  assert.equal(record["error.type"], undefined);
  assert.equal(record["turn.trigger"], "submit");
  assert.equal(record["user.id"], "alice");
  assert.equal(record["gen_ai.conversation.id"], session);
  assert.equal(record["turn.id"], start.messageId);
  assert.equal(record["turn.agent_protocol"], 7, "the demo agent's init says protocol 7");
  assert.equal(record["gen_ai.usage.input_tokens"], prompt.split(" ").length, "the demo counts the prompt's words");
  assert.equal(record["gen_ai.usage.output_tokens"], deltas, "and each delta it sent");
  assert.equal(record["gen_ai.response.model"], "demo-script");
  assert.equal(record["turn.chunks"], chunks.length);
  assert.equal(record["turn.bytes"], Buffer.byteLength(text));
  assert.ok(record["turn.events"] >= deltas + 2, "create, the deltas, the finalize");
  const ttft = record["gen_ai.server.time_to_first_token"];
  assert.ok(record["turn.time_to_first_frame"] <= ttft && ttft <= record["gen_ai.client.operation.duration"]);
  clean(record, prompt, "weather");

  // The same usage in the finish chunk's messageMetadata, as the client reads it.
  assert.deepEqual(finish.messageMetadata.usage, { inputTokens: record["gen_ai.usage.input_tokens"], outputTokens: deltas });
  assert.equal(finish.messageMetadata.model, "demo-script");
  // And in the history, as a client that reloads reads it.
  await usageKept(worker, session, finish, { authorization: headers.authorization });
});

/** The history of `session` on `w` gives its one reply the `usage` and `model` its live `finish` gave. */
async function usageKept(w, session, finish, extra = {}) {
  const response = await fetch(`${w.base}/api/sessions/${session}/messages`, { headers: extra });
  assert.equal(response.status, 200);
  const reply = (await response.json()).find((m) => m.role === "assistant");
  assert.deepEqual([reply.metadata.usage, reply.metadata.model], [finish.messageMetadata.usage, finish.messageMetadata.model], "the history keeps what the turn cost");
}

test("a regenerate, an agent error with and without a code, a lost connection, a timeout: one record each", { timeout: 30_000 }, async () => {
  const cases = [
    { body: chatBody("again", { trigger: "regenerate-message" }), trigger: "regenerate", outcome: "finished" },
    { body: chatBody("/error the tool broke"), outcome: "agent_error", type: "agent_error" },
    { body: chatBody("/drop"), outcome: "connection_lost", type: "connection_lost" },
    { body: chatBody("/hang"), outcome: "timeout", type: "timeout" },
  ];
  await Promise.all(
    cases.map(async ({ body, trigger = "submit", outcome, type }) => {
      const response = await post(worker, sessionId("rec-case"), body);
      const id = response.headers.get("x-request-id");
      await readAll(response);
      const record = await theRecord(worker, id);
      assert.deepEqual([record["turn.trigger"], record["turn.outcome"], record["error.type"]], [trigger, outcome, type], body);
      clean(record, "the tool broke");
    }),
  );

  // A prompt while a turn runs: the agent's `busy`, its code the record's error.type.
  const session = sessionId("rec-busy");
  const running = await post(worker, session, chatBody("/slow 10 100"));
  const busy = await post(worker, session, chatBody("second"));
  const record = await theRecord(worker, busy.headers.get("x-request-id"));
  assert.deepEqual([record["turn.outcome"], record["error.type"]], ["agent_error", "busy"]);
  await readAll(busy);
  await readAll(running);
});

test("stopped, aborted, detached and its resume", { timeout: 30_000 }, async () => {
  // Stopped: a stop from anywhere cancels the turn.
  const stoppedSession = sessionId("rec-stop");
  const stopped = await post(worker, stoppedSession, chatBody("/slow 100 100"));
  await sleep(300);
  const stop = await fetch(`${worker.base}/api/sessions/${stoppedSession}/chat/stop`, { method: "POST", headers });
  assert.equal(stop.status, 202);
  await readAll(stopped);
  assert.equal((await theRecord(worker, stopped.headers.get("x-request-id")))["turn.outcome"], "stopped");

  // Aborted and detached: the client goes; workerd sees it at the next write (a delta each 50 ms).
  const detachedSession = sessionId("rec-detach");
  const leave = async (session, onDisconnect) => {
    const controller = new AbortController();
    const response = await post(worker, session, chatBody("/slow 60 50", { onDisconnect }), { signal: controller.signal });
    const reader = response.body.getReader();
    await reader.read();
    await sleep(200);
    controller.abort();
    return response.headers.get("x-request-id");
  };
  const [aborted, detached] = await Promise.all([leave(sessionId("rec-abort"), "abort"), leave(detachedSession, "detach")]);
  assert.equal((await theRecord(worker, aborted))["turn.outcome"], "aborted");
  const gone = await theRecord(worker, detached);
  assert.equal(gone["turn.outcome"], "detached");

  // The detached turn runs on; a resume streams the rest: a record of its own, same turn.
  const resume = await fetch(`${worker.base}/api/sessions/${detachedSession}/chat/chat-1/stream`, { headers });
  assert.equal(resume.status, 200);
  // A resume is a stream as the POST's: the same headers (nosniff for iOS), its own start first.
  assert.equal(resume.headers.get("x-content-type-options"), "nosniff");
  assert.match((await readAll(resume)).text, /^data: \{"type":"start","messageId":"/);
  const resumed = await theRecord(worker, resume.headers.get("x-request-id"));
  assert.deepEqual([resumed["turn.trigger"], resumed["turn.outcome"], resumed["turn.id"]], ["resume", "finished", gone["turn.id"]]);
  assert.equal(resumed["turn.agent_protocol"], 7, "from the init the resume read");
});

test("refused chat requests: a record with the refusal's code, no trigger before the body", { timeout: 30_000 }, async () => {
  const session = sessionId("rec-refused");
  const anonymous = await postChat(worker.base, session, chatBody("hello"));
  assert.equal(anonymous.status, 401);
  const unauthorized = await theRecord(worker, anonymous.headers.get("x-request-id"));
  assert.deepEqual([unauthorized["turn.outcome"], unauthorized["error.type"], unauthorized["turn.trigger"]], ["refused", "unauthorized", undefined]);
  assert.equal(unauthorized["user.id"], undefined);

  const broken = await post(worker, session, "{not json");
  assert.equal(broken.status, 400);
  const invalid = await theRecord(worker, broken.headers.get("x-request-id"));
  assert.equal(invalid["turn.outcome"], "refused");
  assert.equal(invalid["error.type"], (await broken.json()).error.code);

  // Other routes are no turns: a history read writes no record.
  const history = await fetch(`${worker.base}/api/sessions/${session}/messages`, { headers });
  await history.text();
  assert.deepEqual(await recordsOf(worker, history.headers.get("x-request-id"), Date.now() + 300), []);
});

test("without the dataset binding: the records, and nothing else changes", { timeout: 30_000 }, async () => {
  const response = await post(plain, sessionId("rec-plain"), chatBody("hello"));
  assert.equal(response.status, 200);
  await readAll(response);
  assert.equal((await theRecord(plain, response.headers.get("x-request-id")))["turn.outcome"], "finished");
});

test("the reference TypeScript agent reports usage: in the record, the client's finish and the history", { timeout: 30_000 }, async () => {
  const prompt = "hello from the other agent";
  const session = sessionId("rec-ts");
  const response = await postChat(typescript.base, session, chatBody(prompt));
  assert.equal(response.status, 200);
  const { text } = await readAll(response);
  const chunks = chunksOf(text);
  const deltas = chunks.filter((c) => c.type === "text-delta").length;
  const finish = chunks.find((c) => c.type === "finish");
  const usage = { inputTokens: prompt.split(" ").length, outputTokens: deltas };
  assert.deepEqual(finish.messageMetadata.usage, usage);
  assert.equal(finish.messageMetadata.model, "scripted");
  const record = await theRecord(typescript, response.headers.get("x-request-id"));
  assert.deepEqual([record["gen_ai.usage.input_tokens"], record["gen_ai.usage.output_tokens"], record["gen_ai.response.model"]], [usage.inputTokens, usage.outputTokens, "scripted"]);
  assert.equal(record["user.id"], undefined, "no auth: no caller; the session is the point's index");
  clean(record, prompt);
  await usageKept(typescript, session, finish);
});
