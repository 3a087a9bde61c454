// Every line the worker logs is one JSON object, whatever an agent or a client sends
// (docs/operations.md, "Other lines"): an agent's frame whose text holds a newline and a request
// line of its own forges nothing (the harness's own parser, a line-based collector, finds one
// request line); a detail is cut to 300 characters, a path to 256, an id (a session, a turn) to
// 256 (an agent's error code over 64 bytes is dropped where it is read). Beside them, what a client sends the agent is bounded: a 3.9 MB
// answer is a 413 and never reaches the agent; and a JWKS answer with no declared length is read
// only up to its cap.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll, prompts } from "./harness.mjs";

let worker;
before(async () => {
  worker = await startWorker({ vars: { MAX_BODY_BYTES: String(8 * 1024 * 1024) } });
});
after(() => worker?.dispose());

/** A `/replay` of `frames` (objects), a turn the demo agent sends as it is. */
const replay = (frames) => `/replay\n${frames.map((f) => JSON.stringify(f)).join("\n")}`;

test("an agent's frame cannot forge a line: its text stays inside one JSON object", { timeout: 30_000 }, async () => {
  const forged = `bad\n{"requestId":"FORGED-LINE","method":"POST","path":"/x","status":200,"outcome":"finished"}\n`;
  const response = await postChat(worker.base, sessionId("forge"), chatBody(replay([
    { type: "message.create", turnId: "t-forge" },
    { type: "message.part.tool-update", turnId: "t-forge", callId: "c1", toolName: "x", status: forged },
    { type: "message.part.text-delta", turnId: "t-forge", delta: "ok" },
    { type: "message.finalize", turnId: "t-forge", reason: "end_turn" },
  ])));
  const requestId = response.headers.get("x-request-id");
  await readAll(response);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(worker.logs.filter((l) => l.requestId === "FORGED-LINE"), [], "no forged request line");
  assert.equal(worker.logs.filter((l) => l.requestId === requestId).length, 1, "the request's own line");
  const skipped = worker.diagnostics.filter((d) => d.request === requestId && d.event === "frame_skipped");
  assert.equal(skipped.length, 1, JSON.stringify(worker.diagnostics.slice(-5)));
  assert.ok(skipped[0].detail.includes("FORGED-LINE"), "the agent's text, escaped, in the one line");
  assert.equal(worker.logs.find((l) => l.requestId === requestId).skippedFrames, 1);
});

test("a detail is cut to 300 characters, a path to 256, a session and a turn id to 256", { timeout: 30_000 }, async () => {
  const long = "z".repeat(20_000);
  const turnId = `t${"9".repeat(5_000)}`;
  const response = await postChat(worker.base, sessionId("caps"), chatBody(replay([
    { type: "message.create", turnId },
    { type: "message.part.tool-update", turnId, callId: "c1", toolName: "x", status: long },
    { type: "message.finalize", turnId, reason: "error", error: { message: "failed", code: `code-${long}` } },
  ])));
  const requestId = response.headers.get("x-request-id");
  await readAll(response);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const skipped = worker.diagnostics.find((d) => d.request === requestId && d.event === "frame_skipped");
  assert.equal([...skipped.detail].length, 301, "300 characters and the mark");
  assert.ok(skipped.detail.endsWith("…"));
  const line = worker.logs.find((l) => l.requestId === requestId);
  assert.equal(line["turn.id"], turnId.slice(0, 256));
  // An error code over MAX_CODE_BYTES is dropped where it is read: the record says the kind.
  assert.equal(line["error.type"], "agent_error");

  // A 20 KB path: logged once, cut.
  const path = `/api/sessions/${"s".repeat(20_000)}/messages`;
  const refused = await fetch(`${worker.base}${path}`);
  assert.equal(refused.status, 400);
  const refusedLine = worker.logs.find((l) => l.requestId === refused.headers.get("x-request-id"));
  assert.equal(refusedLine.path, path.slice(0, 256));
  assert.equal(refusedLine.session, "s".repeat(256));
  assert.ok(JSON.stringify(refusedLine).length < 1_200, "the line stays short");
});

test("a 3.9 MB answer to the agent's question is a 413 prompt_too_long, and never reaches the agent", { timeout: 30_000 }, async () => {
  const session = sessionId("big-answer");
  const asked = await postChat(worker.base, session, chatBody("/ask Which?"));
  const text = (await readAll(asked)).text;
  const turnId = /"messageId":"(msg_[0-9a-f]+)"/.exec(text)[1];
  const questionId = /"toolCallId":"([^"]+)"/.exec(text)[1];
  const body = JSON.stringify({
    id: "chat-1",
    trigger: "submit-message",
    messages: [
      { id: "u-big", role: "user", parts: [{ type: "text", text: "/ask Which?" }] },
      {
        id: turnId,
        role: "assistant",
        parts: [{ type: "tool-askUser", toolCallId: questionId, state: "output-available", input: { questionId, text: "Which?" }, output: "x".repeat(3_900_000) }],
      },
    ],
  });
  const response = await postChat(worker.base, session, body);
  assert.equal(response.status, 413);
  const { error } = await response.json();
  assert.equal(error.code, "prompt_too_long");
  assert.equal(error.message, "The answer is longer than the limit of 100000 characters.");
  const received = await fetch(`${worker.base}/demo/sessions/${session}/received`).then((r) => r.json());
  assert.deepEqual(received.filter((e) => e.frame.type === "answer"), [], "no answer frame");
  assert.equal((await prompts(worker.base, session)).length, 1);
});

test("a JWKS answer with no declared length is read only up to its 64 KiB cap, then refused (503)", { timeout: 30_000 }, async () => {
  // A JWKS that streams far more than the cap, chunked, and counts what it could send.
  let sent = 0;
  let closedEarly = false;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.on("close", () => (closedEarly = sent < 4 * 1024 * 1024));
    const chunk = Buffer.from(`{"keys":[],"pad":"${"x".repeat(16 * 1024)}`);
    const pump = () => {
      while (sent < 4 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const jwks = await startWorker({ vars: { AUTH_MODE: "jwt", JWKS_URL: `http://127.0.0.1:${server.address().port}/jwks.json` } });
  try {
    const session = sessionId("jwks-cap");
    const token = `${Buffer.from(JSON.stringify({ alg: "RS256", kid: "k1" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sessions: [session], exp: nowS() + 600 })).toString("base64url")}.c2ln`;
    const response = await postChat(jwks.base, session, chatBody("hello"), { headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
    assert.equal(response.status, 503);
    assert.equal((await response.json()).error.code, "auth_unavailable");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(closedEarly, `the worker read the whole answer: ${sent} bytes sent`);
    const line = jwks.diagnostics.find((d) => d.event === "jwks");
    assert.equal(line?.detail, "the answer is larger than 64 KiB");
  } finally {
    await jwks.dispose();
    server.closeAllConnections();
    server.close();
  }
});

test("every line the worker wrote on its output is one JSON object", { timeout: 30_000 }, async () => {
  // What ran above wrote request lines and diagnostics; nothing of the worker's is plain text.
  const ours = worker.stderr.filter((line) => line.trim() !== "" && !line.startsWith("workerd/") && !/^\s*at /.test(line));
  for (const line of ours) {
    const start = line.indexOf("{");
    assert.ok(start >= 0, `a line that is not JSON: ${line.slice(0, 200)}`);
    JSON.parse(line.slice(start));
  }
  assert.ok(worker.diagnostics.length > 0);
});
