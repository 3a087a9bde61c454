// Auth, CORS, timeouts, frame limits, request ids and log lines, against the built worker in workerd.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { hs256Jwt, nowS } from "./jwks.mjs";
import {
  startWorker, sessionId, chatBody, postChat, readAll, chunksOf, demoLog, prompts, sleep,
} from "./harness.mjs";

const SECRET = "e2e-secret-that-is-long-enough-0123456789";
/** The `token` mode's secret: 32 bytes, the shortest accepted. */
const TOKEN = "tok-0123456789-0123456789-012345";
const ORIGIN = "https://widget.example";

/** An HS256 JWT over `claims`, signed with `secret`. */
const jwt = (claims, secret = SECRET, header = undefined) => hs256Jwt(secret, claims, header);
const now = nowS;

let secured;
let tokened;
before(async () => {
  secured = await startWorker({
    vars: {
      AUTH_MODE: "jwt",
      AUTH_SECRET: SECRET,
      ALLOWED_ORIGINS: `${ORIGIN}, https://app.example`,
      IDLE_TIMEOUT_MS: "600",
      FIRST_EVENT_TIMEOUT_MS: "2000",
      MAX_FRAME_BYTES: "1000",
    },
  });
  tokened = await startWorker({ vars: { AUTH_MODE: "token", AUTH_SECRET: TOKEN } });
});
after(async () => {
  await secured?.dispose();
  await tokened?.dispose();
});

const bearer = (token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });

async function jsonError(response, status, code) {
  assert.equal(response.status, status);
  const body = await response.json();
  assert.equal(body.error.code, code);
  return body;
}

describe("auth", { concurrency: true }, () => {
  test("jwt: missing, forged, expired, early and wrong-algorithm tokens are 401; another session is 403", async () => {
    const s = sessionId("auth");
    const missing = await postChat(secured.base, s, chatBody("hi"));
    await jsonError(missing, 401, "unauthorized");
    assert.equal(missing.headers.get("www-authenticate"), "Bearer");
    const cases = [
      [jwt({ sessions: "*" }, "not-the-secret"), 401, "invalid_token"],
      // Claims that would pass: only the signature (checked with WebCrypto) refuses it.
      [jwt({ sub: "u1", sessions: "*", exp: now() + 600 }, "not-the-secret"), 401, "invalid_token"],
      [jwt({ sessions: "*" }, SECRET, { alg: "none" }), 401, "invalid_token"],
      [jwt({ sessions: "*" }, SECRET, { alg: "HS512" }), 401, "invalid_token"],
      ["not.a.jwt", 401, "invalid_token"],
      [jwt({ sessions: "*", exp: now() - 3600 }), 401, "token_expired"],
      [jwt({ sessions: "*", nbf: now() + 3600, exp: now() + 7200 }), 401, "token_not_yet_valid"],
      [jwt({ sub: "u1", sessions: ["someone-else"], exp: now() + 600 }), 403, "forbidden"],
      [jwt({ sub: "u1", exp: now() + 600 }), 403, "forbidden"],
      [jwt({ sessions: "*" }), 401, "invalid_token"], // no exp: a token that never expires
      [jwt({ sub: "u1\r\nx-admin: 1", sessions: "*", exp: now() + 600 }), 401, "invalid_token"],
    ];
    for (const [token, status, code] of cases) {
      const response = await postChat(secured.base, s, chatBody("hi"), { headers: bearer(token) });
      await jsonError(response, status, code);
      if (status === 401) assert.equal(response.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
    }
    // Nothing reached the agent.
    const reader = bearer(jwt({ sub: "u", sessions: [s], exp: now() + 600 }));
    assert.deepEqual(await prompts(secured.base, s, reader), []);
  });

  test("jwt: a token for the session streams the turn, and its sub reaches the log, not the token", async () => {
    const s = sessionId("auth-ok");
    const token = jwt({ sub: "user-42", sessions: [s], exp: now() + 600 });
    const response = await postChat(secured.base, s, chatBody("/slow 3 10"), { headers: bearer(token) });
    assert.equal(response.status, 200);
    const chunks = chunksOf((await readAll(response)).text);
    assert.equal(chunks.at(-1).type, "finish");
    const requestId = response.headers.get("x-request-id");
    await sleep(100);
    const line = secured.logs.find((l) => l.requestId === requestId);
    assert.equal(line?.user, "user-42");
    assert.equal(line.outcome, "finished");
    // The agent got the protocol's headers, the user among them.
    // The demo's logs demand the chat route's credentials too: they hold every prompt.
    const logUrl = `${secured.base}/demo/sessions/${s}/connections`;
    assert.equal((await fetch(logUrl)).status, 401);
    const other = bearer(jwt({ sub: "u9", sessions: ["someone-else"], exp: now() + 600 }));
    assert.equal((await fetch(logUrl, { headers: other })).status, 403);
    const [connection] = await demoLog(secured.base, s, "connections", bearer(token));
    assert.deepEqual(connection.headers, { "x-session-id": s, "x-user-id": "user-42", "x-client": "ai-sdk-adapter" });
    assert.ok(!JSON.stringify(secured.logs).includes(token.split(".")[2]), "a token reached the logs");
  });

  test("a secret shorter than 32 bytes (HS256's key size) is refused at start-up: every request 500 misconfigured", async () => {
    const weak = await startWorker({ vars: { AUTH_MODE: "token", AUTH_SECRET: TOKEN.slice(1) } });
    try {
      await jsonError(await postChat(weak.base, sessionId("weak"), chatBody("hi"), { headers: bearer(TOKEN.slice(1)) }), 500, "misconfigured");
    } finally {
      await weak.dispose();
    }
  });

  test("token: the exact bearer token opens any session; any other is 401", async () => {
    const s = sessionId("tok");
    const ok = await postChat(tokened.base, s, chatBody("/slow 2 10"), { headers: bearer(TOKEN) });
    assert.equal(ok.status, 200);
    assert.equal(chunksOf((await readAll(ok)).text).at(-1).type, "finish");
    // A shared token names no user: no X-User-Id reaches the agent.
    const [connection] = await demoLog(tokened.base, s, "connections", bearer(TOKEN));
    assert.deepEqual(connection.headers, { "x-session-id": s, "x-user-id": null, "x-client": "ai-sdk-adapter" });
    for (const token of [TOKEN.slice(0, -1), `${TOKEN}4`, TOKEN.toUpperCase()]) {
      await jsonError(await postChat(tokened.base, s, chatBody("hi"), { headers: bearer(token) }), 401, "invalid_token");
    }
  });
});

describe("cors", { concurrency: true }, () => {
  const preflight = (origin) =>
    fetch(`${secured.base}/api/sessions/s/chat`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" },
    });

  test("preflights: 204 with the allow headers for listed origins, nothing for others", async () => {
    const ok = await preflight(ORIGIN);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get("access-control-allow-origin"), ORIGIN);
    assert.equal(ok.headers.get("access-control-allow-methods"), "POST, OPTIONS");
    assert.equal(ok.headers.get("access-control-allow-headers"), "content-type, authorization");
    assert.equal(ok.headers.get("access-control-max-age"), "7200");
    const other = await preflight("https://evil.example");
    assert.equal(other.status, 204);
    for (const name of ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers"]) {
      assert.equal(other.headers.get(name), null, name);
    }
  });

  test("responses carry Access-Control-Allow-Origin for listed origins only", async () => {
    const from = (origin) => postChat(secured.base, "s", chatBody("hi"), { headers: { "content-type": "application/json", origin } });
    const allowed = await from("https://app.example");
    assert.equal(allowed.status, 401);
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(allowed.headers.get("vary"), "Origin");
    const other = await from("https://evil.example");
    assert.equal(other.headers.get("access-control-allow-origin"), null);
  });
});

describe("upstream faults and limits", { concurrency: true }, () => {
  const open = (s) => ({ headers: bearer(jwt({ sub: "u", sessions: [s], exp: now() + 600 })) });

  test("an agent silent past the idle timeout: in-band error and finish, one abort to the agent", { timeout: 20_000 }, async () => {
    const s = sessionId("idle");
    const started = Date.now();
    const response = await postChat(secured.base, s, chatBody("/hang"), open(s));
    assert.equal(response.status, 200);
    const chunks = chunksOf((await readAll(response)).text);
    assert.deepEqual(chunks.map((c) => c.type).slice(-3), ["finish-step", "error", "finish"]);
    assert.equal(chunks.at(-2).errorText, "the agent did not respond in time");
    assert.ok(Date.now() - started < 10_000, "the stream outlived its timeout by far");
    await sleep(200);
    const received = await demoLog(secured.base, s, "received", open(s).headers);
    const requestId = response.headers.get("x-request-id");
    const aborts = received.filter((e) => e.frame.type === "abort");
    assert.deepEqual(aborts.map((e) => e.frame.requestId), [requestId]);
    assert.equal(received.find((e) => e.frame.type === "prompt").frame.requestId, requestId);
  });

  test("a frame over MAX_FRAME_BYTES ends the stream in-band and aborts the turn: no answer with a hole in it", { timeout: 20_000 }, async () => {
    const s = sessionId("frame");
    const big = "x".repeat(2000);
    const log = [
      JSON.stringify({ type: "message.create", turnId: "t1" }),
      JSON.stringify({ type: "message.part.text-delta", turnId: "t1", delta: "small " }),
      "not json",
      JSON.stringify({ type: "message.part.text-delta", turnId: "t1", delta: big }),
      JSON.stringify({ type: "message.part.text-delta", turnId: "t1", delta: "end" }),
      JSON.stringify({ type: "message.finalize", turnId: "t1", reason: "end_turn" }),
    ].join("\n");
    const response = await postChat(secured.base, s, chatBody(`/replay\n${log}`), open(s));
    const chunks = chunksOf((await readAll(response)).text);
    const text = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
    assert.equal(text, "small ", "nothing after the frame that could not be read");
    assert.deepEqual(chunks.slice(-3).map(({ messageMetadata, ...chunk }) => chunk), [
      { type: "finish-step" },
      { type: "error", errorText: "the agent sent a message larger than the limit" },
      { type: "finish" },
    ]);
    await sleep(200);
    const requestId = response.headers.get("x-request-id");
    const line = secured.logs.find((l) => l.requestId === requestId);
    assert.equal(line?.skippedFrames, 2);
    assert.equal(line?.outcome, "frame_too_large");
    const aborts = (await demoLog(secured.base, s, "received", open(s).headers)).filter((e) => e.frame.type === "abort");
    assert.deepEqual(aborts.map((e) => e.frame.requestId), [requestId]);
  });

  test("a 5xx names the request id that the log line and x-request-id carry", async () => {
    const s = `throw-${sessionId("5xx")}`;
    const response = await postChat(secured.base, s, chatBody("hi"), open(s));
    const body = await jsonError(response, 503, "agent_unavailable");
    const requestId = response.headers.get("x-request-id");
    assert.match(requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(body.error.message.includes(requestId), body.error.message);
    assert.ok(!/SESSION_AGENT|Error:|https?:\/\//.test(body.error.message), body.error.message);
    await sleep(100);
    assert.equal(secured.logs.filter((l) => l.requestId === requestId).length, 1);
  });

  test("one log line per request, without message content", async () => {
    const s = sessionId("log");
    const marker = "zebra-quartz-9931";
    const response = await postChat(secured.base, s, chatBody(`/slow 2 10 ${marker}`), open(s));
    await readAll(response);
    await sleep(100);
    const requestId = response.headers.get("x-request-id");
    const lines = secured.logs.filter((l) => l.requestId === requestId);
    assert.equal(lines.length, 1);
    // The request's keys, then the turn's record's (docs/operations.md), in one line.
    const keys = Object.keys(lines[0]);
    assert.deepEqual(
      keys.slice(0, 11),
      ["requestId", "method", "path", "session", "user", "status", "outcome", "chunks", "bytes", "skippedFrames", "durationMs"],
    );
    assert.equal(keys[11], "event.name");
    assert.ok(lines[0].chunks > 0 && lines[0].bytes > 0);
    assert.ok(!JSON.stringify(secured.logs).includes(marker), "prompt text reached the logs");
  });
});
