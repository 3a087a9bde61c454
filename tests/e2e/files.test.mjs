// The session's files (docs/files.md) in workerd with Miniflare's local R2: an upload comes back
// byte for byte, whole and by ranges; the limits (413 declared and counted, 415); the signed URL
// refused for another session, forged or expired (the test signs with the worker's key, so it
// sets the clock of an expiry); the session's owner only; the headers that keep a file from
// running on the worker's origin; the routes closed without the bucket or the key; and the
// uploads no message named, swept at the Cron Trigger's clock, which the test sets.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import net from "node:net";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll, until } from "./harness.mjs";

/** The demo environment's FILES_SECRET (wrangler.toml), with which the test signs URLs itself. */
const FILES_SECRET = "local-demo-files-key-not-a-secret-0123456789";
const AUTH_SECRET = "files-test-auth-secret-0123456789abcdef";
const MiB = 1024 * 1024;
/** The tests' MAX_FILE_BYTES: past one multipart part (5 MiB), so a counted 413 deletes a part. */
const MAX = 6 * MiB;
const TYPES = "image/png,image/svg+xml,text/html,text/plain,application/pdf";

const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));
async function start(options) {
  const worker = await startWorker(options);
  workers.push(worker);
  return worker;
}

/** Uploads `bytes` to `session` as `type`, `filename` in the query; the response. */
function upload(base, session, bytes, { type = "image/png", filename, headers = {} } = {}) {
  const query = filename === undefined ? "" : `?filename=${encodeURIComponent(filename)}`;
  return fetch(`${base}/api/sessions/${session}/files${query}`, {
    method: "POST",
    headers: { "content-type": type, ...headers },
    body: bytes,
  }).catch(withCause);
}

/** A fetch that failed says why (undici's `fetch failed` keeps the socket's error in `cause`: a
 * run failed once on one, loaded, and said no more). */
function withCause(error) {
  throw new Error(`${error.message}: ${error.cause?.code ?? ""} ${error.cause?.message ?? error.cause ?? ""}`, { cause: error });
}

/** PNG's signature (the first bytes the worker checks an `image/png` upload for). */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `n` bytes that start as a PNG does, the rest random: a photo, as far as the worker looks. */
const photo = (n) => Buffer.concat([PNG_SIGNATURE, randomBytes(n - PNG_SIGNATURE.length)]);

/** Uploads `bytes` with no Content-Length (chunked), in chunks of 64 KiB. */
function uploadChunked(base, session, bytes, type = "image/png") {
  let at = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
  return fetch(`${base}/api/sessions/${session}/files`, { method: "POST", headers: { "content-type": type }, body, duplex: "half" }).catch(withCause);
}

/** The signed URL of `fileUrl`'s file in `session`, expiring at `exp`, signed with `secret`. */
function signedBy(fileUrl, { session, exp, secret = FILES_SECRET }) {
  const url = new URL(fileUrl);
  const id = url.pathname.split("/").at(-1);
  const sig = createHmac("sha256", secret).update(`session-agent-chat file-url v1\n${session}\n${id}\n${exp}`).digest("hex");
  return `${url.origin}/api/sessions/${session}/files/${id}?exp=${exp}&sig=${sig}`;
}

async function assertError(response, status, code) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(JSON.parse(text).error.code, code, text);
}

/** The keys stored under a session's prefix. */
async function keysOf(worker, session) {
  const bucket = await worker.r2("FILES");
  return (await bucket.list({ prefix: `sessions/${session}/` })).objects.map((o) => o.key);
}

describe("files in the demo environment (no auth)", () => {
  let worker;
  before(async () => {
    worker = await start({ vars: { MAX_FILE_BYTES: String(MAX), FILE_TYPES: TYPES } });
  });

  test("an upload answers a FileUIPart whose signed URL gives the bytes back, inline, nosniff, privately cached", { timeout: 60_000 }, async () => {
    const session = sessionId("files");
    const bytes = photo(100_000);
    const answer = await upload(worker.base, session, bytes, { filename: "chat shot é.png" });
    assert.equal(answer.status, 201, await answer.clone().text());
    const part = await answer.json();
    assert.deepEqual(Object.keys(part), ["type", "url", "mediaType", "filename", "size"]);
    assert.equal(part.type, "file");
    assert.equal(part.mediaType, "image/png");
    assert.equal(part.filename, "chat shot é.png");
    assert.equal(part.size, bytes.length);
    const url = new URL(part.url);
    assert.equal(url.origin, worker.base);
    assert.match(url.pathname, new RegExp(`^/api/sessions/${session}/files/[0-9a-f]{32}$`));
    const id = url.pathname.split("/").at(-1);
    assert.deepEqual(await keysOf(worker, session), [`sessions/${session}/files/${id}`]);

    const got = await fetch(part.url);
    assert.equal(got.status, 200);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(bytes), "byte for byte");
    assert.equal(got.headers.get("content-type"), "image/png");
    assert.equal(got.headers.get("content-length"), String(bytes.length));
    assert.equal(got.headers.get("x-content-type-options"), "nosniff");
    assert.equal(got.headers.get("content-disposition"), `inline; filename*=UTF-8''chat%20shot%20%C3%A9.png`);
    assert.equal(got.headers.get("content-security-policy"), "default-src 'none'; sandbox");
    assert.equal(got.headers.get("accept-ranges"), "bytes");
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(got.headers.get("cache-control"))?.[1]);
    assert.ok(maxAge > 0 && maxAge <= 3600, got.headers.get("cache-control"));
    assert.ok(Number(url.searchParams.get("exp")) - nowS() <= 3600, "within FILE_URL_TTL_S");

    // No signature, no credentials asked (AUTH_MODE none): the caller's path, never kept stale.
    const plain = await fetch(`${worker.base}${url.pathname}`);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("cache-control"), "private, no-cache");
    assert.ok(Buffer.from(await plain.arrayBuffer()).equals(bytes));
  });

  test("a chunked upload goes in parts, counted, and comes back byte for byte", { timeout: 60_000 }, async () => {
    const session = sessionId("chunked");
    const bytes = photo(5 * MiB + 300_000);
    const answer = await uploadChunked(worker.base, session, bytes);
    assert.equal(answer.status, 201, await answer.clone().text());
    const part = await answer.json();
    assert.equal(part.size, bytes.length);
    const got = await fetch(part.url);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(bytes), "byte for byte");
  });

  test("a Content-Length over MAX_FILE_BYTES is a 413 before any byte of the body", { timeout: 30_000 }, async () => {
    const session = sessionId("declared");
    const url = new URL(worker.base);
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = "";
    socket.on("data", (data) => (answer += data));
    socket.write(`POST /api/sessions/${session}/files HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: ${MAX + 1}\r\n\r\n`);
    const started = Date.now();
    while (!/\r\n\r\n\{.*\}\}/s.test(answer) && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 413 /, answer || "no answer within 10 s");
    assert.equal(JSON.parse(answer.split("\r\n\r\n")[1]).error.code, "file_too_large");
    assert.deepEqual(await keysOf(worker, session), []);
  });

  test("a chunked body counted past MAX_FILE_BYTES is a 413, and the part stored is deleted", { timeout: 60_000 }, async () => {
    const session = sessionId("counted");
    const answer = await uploadChunked(worker.base, session, photo(MAX + 64 * 1024));
    await assertError(answer, 413, "file_too_large");
    assert.deepEqual(await keysOf(worker, session), []);
  });

  test("a file of 0 bytes is a 400 empty_file, declared or counted, and nothing is kept", { timeout: 30_000 }, async () => {
    const session = sessionId("empty");
    await assertError(await upload(worker.base, session, new Uint8Array(0)), 400, "empty_file");
    await assertError(await uploadChunked(worker.base, session, new Uint8Array(0)), 400, "empty_file");
    assert.deepEqual(await keysOf(worker, session), []);
  });

  test("bytes that are not their type are a 400 file_type_mismatch, declared or chunked, and nothing is kept", { timeout: 30_000 }, async () => {
    const session = sessionId("mismatch");
    const page = Buffer.from("<html><script>alert(1)</script></html>");
    await assertError(await upload(worker.base, session, page), 400, "file_type_mismatch");
    await assertError(await uploadChunked(worker.base, session, page), 400, "file_type_mismatch");
    await assertError(await upload(worker.base, session, photo(2_000), { type: "text/plain" }), 400, "file_type_mismatch");
    assert.deepEqual(await keysOf(worker, session), [], "no file kept");
    const bucket = await worker.r2("FILES");
    assert.deepEqual((await bucket.list({ prefix: `pending/${session}/` })).objects, [], "no marker left");
    // Text cut inside a character past the head read back is still text.
    const text = Buffer.from(`${"a".repeat(1023)}☕ and more`);
    assert.equal((await upload(worker.base, session, text, { type: "text/plain" })).status, 201);
  });

  test("a type not on FILE_TYPES, or none, is a 415; a bad filename a 400", { timeout: 30_000 }, async () => {
    const session = sessionId("types");
    await assertError(await upload(worker.base, session, "x", { type: "application/x-msdownload" }), 415, "file_type_not_allowed");
    await assertError(await fetch(`${worker.base}/api/sessions/${session}/files`, { method: "POST", body: new Blob(["x"]) }), 415, "file_type_not_allowed");
    await assertError(await upload(worker.base, session, "x", { type: "text/plain", filename: "../etc/passwd" }), 400, "invalid_filename");
    await assertError(await upload(worker.base, session, "x", { type: "text/plain", filename: "x".repeat(256) }), 400, "invalid_filename");
    assert.deepEqual(await keysOf(worker, session), []);
  });

  test("ranges: one range is a 206 of its bytes, past the end a 416, several the whole file", { timeout: 30_000 }, async () => {
    const session = sessionId("ranges");
    const bytes = photo(1000);
    const { url } = await (await upload(worker.base, session, bytes)).json();
    const get = (range) => fetch(url, { headers: { range } });
    for (const [range, from, to] of [["bytes=10-19", 10, 19], ["bytes=990-", 990, 999], ["bytes=-5", 995, 999], ["bytes=900-5000", 900, 999]]) {
      const part = await get(range);
      assert.equal(part.status, 206, range);
      assert.equal(part.headers.get("content-range"), `bytes ${from}-${to}/1000`, range);
      assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(from, to + 1)), range);
    }
    const past = await get("bytes=1000-");
    assert.equal(past.headers.get("content-range"), "bytes */1000");
    await assertError(past, 416, "range_not_satisfiable");
    const several = await get("bytes=0-1,5-6");
    assert.equal(several.status, 200);
    assert.equal((await several.arrayBuffer()).byteLength, 1000);
  });

  test("SVG and HTML are attachments in a sandbox, never rendered on the worker's origin", { timeout: 30_000 }, async () => {
    const session = sessionId("active");
    for (const [type, body] of [["image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], ["text/html", "<script>alert(1)</script>"], ["text/plain", "<script>alert(1)</script>"]]) {
      const { url } = await (await upload(worker.base, session, body, { type, filename: "x" })).json();
      const got = await fetch(url);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get("content-type"), type);
      assert.equal(got.headers.get("x-content-type-options"), "nosniff");
      assert.equal(got.headers.get("content-disposition"), `attachment; filename*=UTF-8''x`, type);
      assert.equal(got.headers.get("content-security-policy"), "default-src 'none'; sandbox", type);
      assert.equal(await got.text(), body);
    }
  });

  test("a signature for another session's path, forged, or expired is refused", { timeout: 30_000 }, async () => {
    const session = sessionId("signed");
    const { url } = await (await upload(worker.base, session, photo(10))).json();
    // The test's own signature is the worker's: a fresh one opens the file.
    const fresh = await fetch(signedBy(url, { session, exp: nowS() + 60 }));
    assert.equal(fresh.status, 200);
    const other = sessionId("other");
    await assertError(await fetch(url.replace(`/sessions/${session}/`, `/sessions/${other}/`)), 403, "invalid_signature");
    const forged = url.replace(/sig=(.)/, (_, c) => `sig=${c === "0" ? "1" : "0"}`);
    await assertError(await fetch(forged), 403, "invalid_signature");
    await assertError(await fetch(signedBy(url, { session, exp: nowS() + 60, secret: "another-key-0123456789abcdef0123456789" })), 403, "invalid_signature");
    await assertError(await fetch(url.replace(/exp=\d+/, (e) => `exp=${Number(e.slice(4)) + 1}`)), 403, "invalid_signature");
    await assertError(await fetch(url.replace(/&sig=.*/, "")), 403, "invalid_signature");
    // Signed by the worker's key, its expiry passed a second ago: the clock is the test's.
    await assertError(await fetch(signedBy(url, { session, exp: nowS() - 1 })), 403, "url_expired");
    // A file id of no file of the session.
    const none = signedBy(url.replace(/files\/[0-9a-f]{32}/, `files/${"0".repeat(32)}`), { session, exp: nowS() + 60 });
    await assertError(await fetch(none), 404, "file_not_found");
  });
});

describe("files with JWT auth: the session's owner only", () => {
  let worker;
  before(async () => {
    worker = await start({ vars: { AUTH_MODE: "jwt", AUTH_SECRET } });
  });
  const bearer = (sub, sessions) => ({ authorization: `Bearer ${hs256Jwt(AUTH_SECRET, { sub, sessions, exp: nowS() + 600 })}` });

  test("an upload needs the chat route's credentials for its session", { timeout: 30_000 }, async () => {
    const session = sessionId("owned");
    await assertError(await upload(worker.base, session, "x"), 401, "unauthorized");
    await assertError(await upload(worker.base, session, "x", { headers: bearer("u2", ["elsewhere"]) }), 403, "forbidden");
    assert.deepEqual(await keysOf(worker, session), []);
  });

  test("another user's or another session's file is refused, with or without a signature", { timeout: 30_000 }, async () => {
    const mine = sessionId("mine");
    const theirs = sessionId("theirs");
    const answer = await upload(worker.base, mine, photo(10), { headers: bearer("u1", [mine]) });
    assert.equal(answer.status, 201);
    const { url } = await answer.json();
    const path = new URL(url).pathname;
    // The owner, by credentials or by the signed URL.
    assert.equal((await fetch(`${worker.base}${path}`, { headers: bearer("u1", [mine]) })).status, 200);
    assert.equal((await fetch(url)).status, 200);
    // No credentials and no signature; another user's token.
    await assertError(await fetch(`${worker.base}${path}`), 401, "unauthorized");
    await assertError(await fetch(`${worker.base}${path}`, { headers: bearer("u2", [theirs]) }), 403, "forbidden");
    // The file's id under the other user's own session: not a file of it.
    const moved = path.replace(`/sessions/${mine}/`, `/sessions/${theirs}/`);
    await assertError(await fetch(`${worker.base}${moved}`, { headers: bearer("u2", [theirs]) }), 404, "file_not_found");
    await assertError(await fetch(`${worker.base}${moved}${new URL(url).search}`), 403, "invalid_signature");
  });
});

describe("closed without the bucket or the key", () => {
  for (const unset of ["FILES", "FILES_SECRET"]) {
    test(`no ${unset}: the files routes answer 501 files_not_configured`, { timeout: 30_000 }, async () => {
      const worker = await start({ unset: [unset] });
      const session = sessionId("closed");
      await assertError(await upload(worker.base, session, "x"), 501, "files_not_configured");
      await assertError(await fetch(`${worker.base}/api/sessions/${session}/files/${"0".repeat(32)}`), 501, "files_not_configured");
      assert.ok(worker.diagnostics.some((d) => d.event === "files"), JSON.stringify(worker.diagnostics));
    });
  }
});

describe("uploads no message named: swept after UPLOAD_TTL_H, at the Cron Trigger's clock", () => {
  const HOUR = 3_600_000;

  test("an upload no message named is deleted once older than UPLOAD_TTL_H, and nothing else is", { timeout: 60_000 }, async () => {
    const worker = await start({ vars: { UPLOAD_TTL_H: "2" } });
    const session = sessionId("swept");
    const uploadedAt = Date.now();
    const [left, named] = await Promise.all([photo(5_000), photo(6_000)].map(async (bytes) => ({ bytes, part: await (await upload(worker.base, session, bytes, { filename: "a.png" })).json() })));
    const bucket = await worker.r2("FILES");
    const markers = async () => (await bucket.list({ prefix: `pending/${session}/` })).objects.map((o) => o.key.split("/").at(-1));
    const idOf = (part) => new URL(part.url).pathname.split("/").at(-1);
    assert.deepEqual((await markers()).sort(), [idOf(left.part), idOf(named.part)].sort(), "each upload waits for a message");

    // A message names one: it is the message's now.
    const body = JSON.parse(chatBody("/slow 1 1 look"));
    body.messages[0].parts.push({ type: "file", mediaType: "image/png", url: named.part.url, filename: "a.png" });
    const chat = await postChat(worker.base, session, JSON.stringify(body));
    assert.equal(chat.status, 200, await chat.clone().text());
    await readAll(chat);
    assert.deepEqual(await markers(), [idOf(left.part)], "the named upload waits no more");

    const fetchBack = async (part) => fetch(part.url).then(async (r) => [r.status, r.ok ? Buffer.from(await r.arrayBuffer()).equals(part === left.part ? left.bytes : named.bytes) : null]);
    // A sweep before the life is over deletes nothing.
    await worker.scheduled(uploadedAt + 2 * HOUR - 60_000);
    assert.deepEqual(await fetchBack(left.part), [200, true]);
    assert.deepEqual(await markers(), [idOf(left.part)]);
    // After it, the upload nobody sent goes, with its marker; the message's file stays.
    await worker.scheduled(Date.now() + 2 * HOUR + 60_000);
    assert.deepEqual(await fetchBack(left.part), [404, null]);
    assert.deepEqual(await fetchBack(named.part), [200, true]);
    assert.deepEqual(await keysOf(worker, session), [`sessions/${session}/files/${idOf(named.part)}`]);
    assert.deepEqual(await markers(), []);
    await until(() => worker.diagnostics.some((d) => d.event === "upload_sweep" && /^1 upload\(s\) older than 2 h deleted/.test(d.detail)), "the sweep's line");
  });

  test("an UPLOAD_TTL_H out of its bounds is a 500 misconfigured, as any setting", { timeout: 30_000 }, async () => {
    const worker = await start({ vars: { UPLOAD_TTL_H: "721" } });
    await assertError(await upload(worker.base, sessionId("ttl"), "x"), 500, "misconfigured");
  });
});
