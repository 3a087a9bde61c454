// Per-caller rate limiting with the Rate Limiting binding RATE_LIMITER (Miniflare simulates it):
// past the binding's limit a caller gets 429 rate_limited with Retry-After and RateLimit, on every route that
// reaches the agent; another caller still gets through; refused credentials spend the client's
// (IP's) budget, preflights nothing. Without the binding, no limit; a RATE_LIMITER that is not the binding is a 500.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "./harness.mjs";

const SECRET = "e2e-rate-limit-secret-long-enough";
const LIMIT = 4;
/** The binding's period, seconds (the worker's default `RATE_LIMIT_PERIOD_S`: `Retry-After: 60`). */
const PERIOD_S = 60;
const ORIGIN = "https://widget.example";
const jwt = (sub) => hs256Jwt(SECRET, { sub, sessions: "*", exp: nowS() + 600 });
const auth = (sub) => ({ authorization: `Bearer ${jwt(sub)}` });
const vars = { AUTH_MODE: "jwt", AUTH_SECRET: SECRET, ALLOWED_ORIGINS: ORIGIN };

let limited;
let unlimited;
let misbound;
before(async () => {
  [limited, unlimited, misbound] = await Promise.all([
    startWorker({ vars, ratelimits: { RATE_LIMITER: { namespace_id: "1001", simple: { limit: LIMIT, period: PERIOD_S } } } }),
    startWorker({ vars }),
    startWorker({ vars: { ...vars, RATE_LIMITER: "100" } }),
  ]);
});
after(() => Promise.all([limited, unlimited, misbound].map((w) => w?.dispose())));

/**
 * Waits, when needed, until at least `needMs` are left in the current window. Miniflare's binding
 * counts in fixed windows aligned on `Date.now()` (a new window every `PERIOD_S`, all counts
 * dropped): a test whose requests straddle a window's edge would see its spent budget come back.
 */
async function awaitRoomInWindow(needMs) {
  const left = PERIOD_S * 1000 - (Date.now() % (PERIOD_S * 1000));
  if (left < needMs) await sleep(left + 50);
}

const history = (worker, session, headers) => fetch(`${worker.base}/api/sessions/${session}/messages`, { headers });

test("the caller past the limit gets 429 with Retry-After on each agent route; another caller does not", async () => {
  const s = sessionId("rl");
  // Every counted request below, through the last 429 and bob's 200, within one window: they
  // take 1–2 s here, so 15 s left is ample on a slow CI machine.
  await awaitRoomInWindow(15_000);
  // Refused credentials spend the client's budget (its IP's: no credential names it), so a secret
  // cannot be guessed faster than the limit: past it they get the 429 too. The users' budgets are
  // their own, below.
  for (let i = 0; i < LIMIT; i++) {
    assert.equal((await history(limited, s, { authorization: "Bearer nope" })).status, 401, `guess ${i + 1}`);
  }
  const guessed = await history(limited, s, { authorization: "Bearer nope" });
  assert.equal(guessed.status, 429);
  assert.equal(guessed.headers.get("retry-after"), "60");
  assert.equal((await guessed.json()).error.code, "rate_limited");
  // The limit counts every route that reaches the agent: chat, history, resume, stop.
  const chat = await postChat(limited.base, s, chatBody("/slow 2 5"), { headers: { "content-type": "application/json", ...auth("alice") } });
  assert.equal(chat.status, 200);
  await readAll(chat);
  assert.equal((await history(limited, s, auth("alice"))).status, 200);
  const resume = await fetch(`${limited.base}/api/sessions/${s}/chat/c1/stream`, { headers: auth("alice") });
  assert.equal(resume.status, 204);
  const stop = await fetch(`${limited.base}/api/sessions/${s}/chat/stop`, { method: "POST", headers: auth("alice") });
  assert.equal(stop.status, 200);
  await stop.arrayBuffer();
  // The next one, on any of them, is over the limit.
  const over = [
    await history(limited, s, { ...auth("alice"), origin: ORIGIN }),
    await postChat(limited.base, s, chatBody("hi"), { headers: { "content-type": "application/json", ...auth("alice") } }),
    await fetch(`${limited.base}/api/sessions/${s}/chat/c1/stream`, { headers: auth("alice") }),
  ];
  for (const response of over) {
    assert.equal(response.status, 429);
    assert.equal(response.headers.get("retry-after"), "60");
    // The IETF RateLimit field: the caller's policy, nothing left, a new budget within 60 s.
    assert.equal(response.headers.get("ratelimit"), `"caller";r=0;t=${PERIOD_S}`);
    assert.deepEqual(await response.json(), {
      error: { code: "rate_limited", message: "Too many requests from this caller. Try again in 60 seconds." },
    });
  }
  // A page on an allowed origin can read Retry-After and RateLimit.
  assert.equal(over[0].headers.get("access-control-allow-origin"), ORIGIN);
  assert.match(over[0].headers.get("access-control-expose-headers"), /retry-after, ratelimit/);
  // Another user has a budget of their own.
  assert.equal((await history(limited, s, auth("bob"))).status, 200);
  // A preflight is never limited.
  const preflight = await fetch(`${limited.base}/api/sessions/${s}/chat`, {
    method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
  });
  assert.equal(preflight.status, 204);
  // The log says why.
  await sleep(100);
  const line = limited.logs.find((l) => l.requestId === over[0].headers.get("x-request-id"));
  assert.equal(line?.outcome, "rate_limited");
  assert.equal(line.user, "alice");
});

test("without the binding there is no limit", async () => {
  const s = sessionId("rl-off");
  for (let i = 0; i < LIMIT * 3; i++) {
    const response = await history(unlimited, s, auth("alice"));
    assert.equal(response.status, 200, `request ${i + 1}`);
    await response.arrayBuffer();
  }
});

test("a RATE_LIMITER that is not a Rate Limiting binding refuses, never runs unlimited", async () => {
  const response = await history(misbound, sessionId("rl-bad"), auth("alice"));
  assert.equal(response.status, 500);
  assert.equal((await response.json()).error.code, "misconfigured");
});
