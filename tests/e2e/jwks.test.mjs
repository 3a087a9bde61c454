// RS256 and ES256 tokens checked against a JWKS (JWKS_URL), in workerd, with a JWKS server of the
// test's own on 127.0.0.1 and keys made by the test: the keys it names open the session; a wrong
// key, an expired token, a wrong iss or aud, no exp are 401; a new kid is fetched once, more
// unknown kids within the minute are not; Cache-Control max-age keeps the set; a JWKS that
// cannot be fetched is a 503 `auth_unavailable`, never an open door.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, demoLog, sleep } from "./harness.mjs";
import { rsaKey, ecKey, signJwt, startJwksServer, hs256Jwt } from "./jwks.mjs";

const ISSUER = "https://tenant.example/";
const AUDIENCE = "https://api.example";
const SECRET = "e2e-jwks-secret-that-is-long-enough";
const now = () => Math.floor(Date.now() / 1000);
const claims = (session, extra = {}) => ({
  sub: "user-jwks", sessions: [session], iss: ISSUER, aud: AUDIENCE, exp: now() + 600, ...extra,
});
const bearer = (token) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });

/** An HS256 token, as before JWKS. */
const hs256 = (payload) => hs256Jwt(SECRET, payload);

/** The GET history route with `token`: cheap, and it reaches the agent once let in. */
const history = (worker, session, token) =>
  fetch(`${worker.base}/api/sessions/${session}/messages`, { headers: { authorization: `Bearer ${token}` } });

async function refused(response, status, code, message) {
  assert.equal(response.status, status);
  const body = await response.json();
  assert.equal(body.error.code, code, JSON.stringify(body));
  if (message) assert.match(body.error.message, message);
  return body;
}

const rsa1 = rsaKey("rsa-1");
const ec1 = ecKey("ec-1");
let jwks;
const workers = {};
before(async () => {
  jwks = await startJwksServer();
  jwks.serve("/main", { keys: [rsa1, ec1], cacheControl: "public, max-age=3600" });
  jwks.serve("/short", { keys: [rsa1], cacheControl: "max-age=60" });
  jwks.serve("/down", { status: 500 });
  jwks.serve("/burst", { keys: [rsa1, ec1] });
  const stopped = await startJwksServer();
  await stopped.close(); // a port where nothing answers any more
  const jwt = (path, extra = {}) => ({
    AUTH_MODE: "jwt", JWKS_URL: path.startsWith("http") ? path : jwks.url(path), JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, ...extra,
  });
  const started = await Promise.all([
    startWorker({ vars: jwt("/main") }),
    startWorker({ vars: jwt("/short", { AUTH_SECRET: SECRET }) }),
    startWorker({ vars: jwt("/down", { AUTH_SECRET: SECRET }) }),
    startWorker({ vars: jwt(stopped.url("/jwks.json")) }),
    startWorker({ vars: jwt("/burst") }),
  ]);
  [workers.main, workers.short, workers.down, workers.stopped, workers.burst] = started;
});
after(async () => {
  await Promise.all(Object.values(workers).map((w) => w.dispose()));
  await jwks?.close();
});

describe("jwks", { concurrency: true }, () => {
  describe("one worker, one key set, in order", { concurrency: 1 }, () => {
    test("RS256 and ES256 tokens open the session; one fetch serves both", async () => {
      const s = sessionId("jwks");
      for (const key of [rsa1, ec1]) {
        const response = await postChat(workers.main.base, s, chatBody("/slow 2 5"), { headers: bearer(signJwt(key, claims(s))) });
        assert.equal(response.status, 200, key.alg);
        assert.equal(chunksOf((await readAll(response)).text).at(-1).type, "finish");
      }
      const [first] = await demoLog(workers.main.base, s, "connections", bearer(signJwt(ec1, claims(s))));
      assert.equal(first.headers["x-user-id"], "user-jwks");
      assert.equal(jwks.fetches("/main"), 1);
      // No AUTH_SECRET here: an HS256 token has no key.
      await refused(await history(workers.main, s, hs256(claims(s))), 401, "invalid_token", /no key is configured/);
    });

    test("a wrong key, an expired token, a wrong iss or aud, no exp, no kid: 401, no fetch", async () => {
      const s = sessionId("jwks-bad");
      const impostorRsa = { ...rsaKey("rsa-1") }; // the same kid, another key
      const impostorEc = ecKey("ec-1");
      const cases = [
        [signJwt(impostorRsa, claims(s)), "invalid_token", /bad signature/],
        [signJwt(impostorEc, claims(s)), "invalid_token", /bad signature/],
        [signJwt(rsa1, claims(s), { alg: "ES256" }), "invalid_token", /bad signature|not in the key set/],
        [signJwt(rsa1, claims(s, { exp: now() - 3600 })), "token_expired", /expired/],
        [signJwt(ec1, claims(s, { iss: "https://evil.example/" })), "invalid_token", /issuer \(`iss`\)/],
        [signJwt(rsa1, claims(s, { iss: undefined })), "invalid_token", /issuer \(`iss`\)/],
        [signJwt(rsa1, claims(s, { aud: "https://other.example" })), "invalid_token", /audience \(`aud`\)/],
        [signJwt(ec1, claims(s, { aud: ["https://other.example"] })), "invalid_token", /audience \(`aud`\)/],
        [signJwt(rsa1, claims(s, { exp: undefined })), "invalid_token", /no expiry \(`exp`\)/],
        [signJwt(rsa1, claims(s), { kid: undefined }), "invalid_token", /names no key \(`kid`\)/],
        [signJwt(rsa1, claims(s), { alg: "none" }), "invalid_token", /only HS256, RS256 and ES256/],
        [signJwt(rsa1, claims(s), { alg: "PS256" }), "invalid_token", /only HS256, RS256 and ES256/],
      ];
      for (const [token, code, message] of cases) {
        const response = await history(workers.main, s, token);
        await refused(response, 401, code, message);
        assert.equal(response.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
      }
      // Positive controls: aud in an array; another session is 403, not 401.
      assert.equal((await history(workers.main, s, signJwt(ec1, claims(s, { aud: ["x", AUDIENCE] })))).status, 200);
      await refused(await history(workers.main, s, signJwt(rsa1, claims("someone-else"))), 403, "forbidden");
      assert.equal(jwks.fetches("/main"), 1, "known kids are never fetched again");
    });

    test("rotation: a new kid on the server is fetched once and accepted", async () => {
      const s = sessionId("jwks-rotate");
      const rsa2 = rsaKey("rsa-2");
      jwks.serve("/main", { keys: [rsa1, ec1, rsa2], cacheControl: "public, max-age=3600" });
      const response = await history(workers.main, s, signJwt(rsa2, claims(s)));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), []);
      assert.equal(jwks.fetches("/main"), 2);
      // The old keys still work, from the cache.
      assert.equal((await history(workers.main, s, signJwt(rsa1, claims(s)))).status, 200);
      assert.equal(jwks.fetches("/main"), 2);
    });

    test("unknown kids within the minute: 401 without a fetch, even for a key added since", async () => {
      const s = sessionId("jwks-flood");
      const made = Array.from({ length: 25 }, () => signJwt({ ...rsa1, kid: randomUUID() }, claims(s)));
      const answers = await Promise.all(made.map((token) => history(workers.main, s, token)));
      for (const response of answers) await refused(response, 401, "invalid_token", /not in the key set/);
      const rsa3 = rsaKey("rsa-3");
      jwks.serve("/main", { keys: [rsa1, ec1, rsa3], cacheControl: "public, max-age=3600" });
      await refused(await history(workers.main, s, signJwt(rsa3, claims(s))), 401, "invalid_token", /not in the key set/);
      assert.equal(jwks.fetches("/main"), 2, "the refetch of the rotation was this minute's only one");
    });
  });

  test("a burst on a cold isolate: one request fetches, the others wait for its keys", async () => {
    const s = sessionId("jwks-burst");
    const known = Array.from({ length: 20 }, (_, i) => signJwt(i % 2 ? rsa1 : ec1, claims(s)));
    const unknown = Array.from({ length: 10 }, () => signJwt({ ...rsa1, kid: randomUUID() }, claims(s)));
    const answers = await Promise.all([...known, ...unknown].map((token) => history(workers.burst, s, token)));
    assert.deepEqual(answers.map((r) => r.status), [...known.map(() => 200), ...unknown.map(() => 401)]);
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    // The load, and one refetch for the unknown kids.
    assert.equal(jwks.fetches("/burst"), 2);
  });

  test("Cache-Control max-age: the set is kept that long, then fetched again; HS256 works next to it", { timeout: 90_000 }, async () => {
    const s = sessionId("jwks-age");
    for (let i = 0; i < 5; i++) {
      assert.equal((await history(workers.short, s, signJwt(rsa1, claims(s)))).status, 200);
      assert.equal((await history(workers.short, s, hs256(claims(s)))).status, 200);
    }
    assert.equal(jwks.fetches("/short"), 1);
    await sleep(61_000); // max-age=60
    assert.equal((await history(workers.short, s, signJwt(rsa1, claims(s)))).status, 200);
    assert.equal(jwks.fetches("/short"), 2);
  });

  test("a JWKS that cannot be fetched: 503 auth_unavailable with Retry-After, tried again after it", { timeout: 60_000 }, async () => {
    const s = sessionId("jwks-down");
    const token = signJwt(rsa1, claims(s));
    const expectUnavailable = async (worker) => {
      const response = await history(worker, s, token);
      const body = await refused(response, 503, "auth_unavailable", /cannot be fetched right now/);
      assert.match(body.error.message, /Request id: [0-9a-f-]{36}\.$/);
      const retryAfter = Number(response.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
      assert.equal(response.headers.get("www-authenticate"), null);
      return retryAfter;
    };
    // Nothing listening.
    await expectUnavailable(workers.stopped);
    // A 500, then a cut connection, then not JSON: each a 503, each tried once, the worker
    // waiting Retry-After before the next try; HS256 tokens meanwhile work.
    for (const [failure, next] of [[{ status: 500 }, { drop: true }], [{ drop: true }, { body: "not json" }], [{ body: "not json" }, { keys: [rsa1] }]]) {
      jwks.serve("/down", failure);
      const before = jwks.fetches("/down");
      const wait = await expectUnavailable(workers.down);
      await expectUnavailable(workers.down);
      assert.equal(jwks.fetches("/down"), before + 1, "one fetch per try");
      assert.equal((await history(workers.down, s, hs256(claims(s)))).status, 200);
      jwks.serve("/down", next);
      await sleep(wait * 1000 + 200);
    }
    assert.equal((await history(workers.down, s, token)).status, 200);
  });
});
