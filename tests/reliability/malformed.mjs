// 3. Malformed requests: each kind gets its documented status and `error.code` in the JSON error
// shape, with `x-request-id`, and never a 5xx. A few well-formed requests next to them (positive
// controls) prove the checks do not simply refuse everything: a token inside the clock skew, a
// body exactly at the size limit, a prompt exactly at the length limit, an allowed preflight.
import { request, checkStream, checkJsonError, jwt, nowSecs, pool } from "./lib.mjs";
import { rsaKey, ecKey, signJwt } from "../e2e/jwks.mjs";

/** A body with one user message whose parts are `parts`, plus `extra` top-level fields. */
const body = (parts, extra = {}) => JSON.stringify({
  id: "chat-1", trigger: "submit-message",
  messages: [{ id: "u1", role: "user", parts }],
  ...extra,
});
const textBody = (text, extra) => body([{ type: "text", text }], extra);

/** A streamed turn that is short and well-formed. */
const OK_PROMPT = "/slow 2 5";

/**
 * The kinds. `on` names the worker: `jwt` (AUTH_MODE=jwt, small limits, one allowed origin, HS256
 * with the secret and RS256 / ES256 from a JWKS, `iss` and `aud` checked), `token`
 * (AUTH_MODE=token), `default` (wrangler.toml's `demo` environment: AUTH_MODE none, default
 * limits), `jwksDown` (AUTH_MODE=jwt with a JWKS that answers 500).
 * `auth: false` sends no Authorization header; otherwise a valid token for every session.
 * `unavailable: true` marks the one kind whose 5xx is the documented answer (the JWKS is down).
 */
export function kinds(ctx) {
  const { secret, limits, origin, marker, issuer, audience, keys } = ctx;
  const now = nowSecs();
  const claims = (extra = {}) => ({ sub: "user-rel", exp: now + 3600, nbf: now - 10, sessions: "*", iss: issuer, aud: audience, ...extra });
  // The same kid as the JWKS's keys, another key pair: a forgery that names a real key.
  const impostor = { rsa: { ...rsaKey(keys.rsa.kid) }, ec: ecKey(keys.ec.kid) };
  const good = jwt(claims(), secret);
  const bearer = (t) => ({ authorization: `Bearer ${t}` });
  const json = { "content-type": "application/json" };
  const okBody = textBody(`${OK_PROMPT} ${marker}`);
  const chat = (s = ctx.session()) => `/api/sessions/${s}/chat`;
  const err = (status, code) => ({ error: { status, code } });
  const big = (n) => "x".repeat(n);
  /** A body of exactly `n` bytes: the short prompt, padded with an unknown top-level field. */
  const bodyOfSize = (n) => {
    const shell = textBody(`${OK_PROMPT} ${marker}`, { pad: "" });
    return textBody(`${OK_PROMPT} ${marker}`, { pad: big(n - Buffer.byteLength(shell)) });
  };
  const chunked = (total, piece = 64 * 1024) => new ReadableStream({
    start(controller) {
      for (let sent = 0; sent < total; sent += piece) controller.enqueue(new TextEncoder().encode(big(Math.min(piece, total - sent))));
      controller.close();
    },
  });
  const messages = (n) => JSON.stringify({
    // Alternating roles; the last one is the user's.
    messages: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, role: (n - 1 - i) % 2 ? "assistant" : "user", parts: [{ type: "text", text: `${OK_PROMPT} ${marker}` }] })),
  });
  const preflight = (from) => ({
    method: "OPTIONS",
    headers: { origin: from, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
  const lastMessage = (m) => JSON.stringify({ messages: [m] });

  return [
    // --- the body (valid token) ---
    { kind: "not JSON", body: "{oops", expect: err(400, "invalid_json") },
    { kind: "not UTF-8", body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), expect: err(400, "invalid_json") },
    { kind: "empty body", body: "", expect: err(400, "invalid_json") },
    { kind: "JSON nested 60,000 deep", body: `{"messages":${"[".repeat(60_000)}`, expect: err(400, "invalid_json") },
    { kind: "JSON array", body: "[]", expect: err(400, "invalid_body") },
    { kind: "JSON string", body: '"hello"', expect: err(400, "invalid_body") },
    { kind: "JSON null", body: "null", expect: err(400, "invalid_body") },
    { kind: "id is a number", body: textBody(OK_PROMPT, { id: 5 }), expect: err(400, "invalid_field") },
    { kind: "trigger is an object", body: textBody(OK_PROMPT, { trigger: {} }), expect: err(400, "invalid_field") },
    { kind: "messageId is an array", body: textBody(OK_PROMPT, { messageId: [] }), expect: err(400, "invalid_field") },
    { kind: "no messages", body: JSON.stringify({ id: "c" }), expect: err(400, "missing_messages") },
    { kind: "messages is an object", body: JSON.stringify({ messages: {} }), expect: err(400, "missing_messages") },
    { kind: "messages is null", body: JSON.stringify({ messages: null }), expect: err(400, "missing_messages") },
    { kind: "messages empty", body: JSON.stringify({ messages: [] }), expect: err(400, "no_messages") },
    { kind: `${limits.maxMessages + 1} messages (limit ${limits.maxMessages})`, body: messages(limits.maxMessages + 1), expect: err(413, "too_many_messages") },
    { kind: "last message without role", body: lastMessage({ id: "u", parts: [{ type: "text", text: "hi" }] }), expect: err(400, "invalid_message") },
    { kind: "last message without parts", body: lastMessage({ id: "u", role: "user" }), expect: err(400, "invalid_message") },
    { kind: "parts is a string", body: lastMessage({ id: "u", role: "user", parts: "hi" }), expect: err(400, "invalid_message") },
    { kind: "last message is a number", body: JSON.stringify({ messages: [7] }), expect: err(400, "invalid_message") },
    { kind: "part without type", body: body([{ text: "hi" }]), expect: err(400, "invalid_message") },
    { kind: "text part whose text is a number", body: body([{ type: "text", text: 42 }]), expect: err(400, "invalid_message") },
    { kind: "file part without url", body: body([{ type: "file", mediaType: "image/png" }]), expect: err(400, "invalid_message") },
    { kind: "file part with an http: url (the agent may fetch it)", body: body([{ type: "text", text: "hi" }, { type: "file", mediaType: "image/png", url: "http://169.254.169.254/latest" }]), expect: err(400, "invalid_attachment") },
    { kind: "file part with a file: url", body: body([{ type: "file", mediaType: "text/plain", url: "file:///etc/passwd" }]), expect: err(400, "invalid_attachment") },
    { kind: "file part with a relative url", body: body([{ type: "file", mediaType: "text/plain", url: "/etc/passwd" }]), expect: err(400, "invalid_attachment") },
    { kind: "data-answer without questionId", body: body([{ type: "data-answer", data: { answer: "yes" } }]), expect: err(400, "invalid_message") },
    { kind: "data-answer to no pending question", body: body([{ type: "data-answer", data: { questionId: "q-none", answer: "yes" } }]), expect: err(409, "question_not_pending") },
    { kind: "onDisconnect other than abort / detach", body: JSON.stringify({ ...JSON.parse(okBody), onDisconnect: "later" }), expect: err(400, "invalid_field") },
    { kind: "trace other than minimal / normal / full", body: JSON.stringify({ ...JSON.parse(okBody), trace: "verbose" }), expect: err(400, "invalid_field") },
    { kind: "last message from the assistant", body: lastMessage({ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }), expect: err(422, "last_message_not_from_user") },
    { kind: "only whitespace text", body: body([{ type: "text", text: " \n\t " }]), expect: err(422, "empty_message") },
    { kind: "only a reasoning part", body: body([{ type: "reasoning", text: "hmm" }]), expect: err(422, "empty_message") },
    { kind: `prompt of ${limits.maxPromptChars + 1} characters (limit ${limits.maxPromptChars})`, body: textBody(big(limits.maxPromptChars + 1)), expect: err(413, "prompt_too_long") },
    { kind: `body of ${limits.maxBodyBytes + 1} bytes (limit ${limits.maxBodyBytes})`, body: bodyOfSize(limits.maxBodyBytes + 1), expect: err(413, "body_too_large") },
    { kind: "body of 8 MiB", body: textBody(big(8 * 1024 * 1024)), expect: err(413, "body_too_large") },
    { kind: "chunked body of 1 MiB, no Content-Length", body: () => chunked(1024 * 1024), expect: err(413, "body_too_large") },
    // --- the request line and headers ---
    { kind: "Content-Type text/plain", headers: { "content-type": "text/plain" }, body: okBody, expect: err(415, "unsupported_media_type") },
    { kind: "no Content-Type", headers: {}, body: () => new Blob([okBody]), expect: err(415, "unsupported_media_type") },
    { kind: "Content-Type multipart/form-data", headers: { "content-type": "multipart/form-data; boundary=x" }, body: okBody, expect: err(415, "unsupported_media_type") },
    { kind: "Content-Type form-urlencoded", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1", expect: err(415, "unsupported_media_type") },
    { kind: "session id with a space", path: chat("bad%20id"), body: okBody, expect: err(400, "invalid_session_id") },
    { kind: "session id of 129 characters", path: chat("a".repeat(129)), body: okBody, expect: err(400, "invalid_session_id") },
    { kind: "session id with non-ASCII letters", path: chat("%C3%A9t%C3%A9"), body: okBody, expect: err(400, "invalid_session_id") },
    { kind: "session id with an encoded slash", path: chat("a%2Fb"), body: okBody, expect: err([400, 404], ["invalid_session_id", "not_found"]) },
    { kind: "GET on the chat route", method: "GET", headers: {}, body: undefined, expect: err(405, "method_not_allowed"), check: allowHasPost },
    { kind: "PUT on the chat route", method: "PUT", body: okBody, expect: err(405, "method_not_allowed"), check: allowHasPost },
    { kind: "DELETE on the chat route", method: "DELETE", headers: {}, body: undefined, expect: err(405, "method_not_allowed"), check: allowHasPost },
    { kind: "unknown path", path: "/nothing/here", body: okBody, expect: err(404, "not_found") },
    { kind: "route prefix only", path: "/api/sess", body: okBody, expect: err(404, "not_found") },
    { kind: "POST on a conversation's path (rename and delete only)", path: "/api/sessions/s1", body: okBody, expect: err(405, "method_not_allowed") },
    { kind: "route with an extra segment", path: `${chat()}/more`, body: okBody, expect: err(404, "not_found") },
    { kind: "empty session id", path: "/api/sessions//chat", body: okBody, expect: err([400, 404], ["invalid_session_id", "not_found"]) },
    // --- credentials (AUTH_MODE=jwt; the body is fine) ---
    { kind: "jwt: no Authorization", auth: false, body: okBody, expect: err(401, "unauthorized"), check: bearerChallenge },
    { kind: "jwt: Basic credentials", auth: false, headers: { ...json, authorization: "Basic dXNlcjpwYXNz" }, body: okBody, expect: err(401, "unauthorized"), check: bearerChallenge },
    { kind: "jwt: Bearer with no token", auth: false, headers: { ...json, authorization: "Bearer" }, body: okBody, expect: err(401, "unauthorized"), check: bearerChallenge },
    { kind: "jwt: token that is not a JWT", auth: false, headers: { ...json, ...bearer("not-a-jwt") }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: expired an hour ago", auth: false, headers: { ...json, ...bearer(jwt(claims({ exp: now - 3600 }), secret)) }, body: okBody, expect: err(401, "token_expired"), check: bearerChallenge },
    { kind: "jwt: expired 120 s ago (past the 60 s skew)", auth: false, headers: { ...json, ...bearer(jwt(claims({ exp: now - 120 }), secret)) }, body: okBody, expect: err(401, "token_expired"), check: bearerChallenge },
    { kind: "jwt: not valid for another hour (nbf)", auth: false, headers: { ...json, ...bearer(jwt(claims({ nbf: now + 3600 }), secret)) }, body: okBody, expect: err(401, "token_not_yet_valid"), check: bearerChallenge },
    { kind: "jwt: forged (signed with another secret)", auth: false, headers: { ...json, ...bearer(jwt(claims(), `${secret}-not`)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: alg none, no signature", auth: false, headers: { ...json, ...bearer(jwt(claims(), secret, { header: { alg: "none", typ: "JWT" }, hash: null })) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: alg HS512", auth: false, headers: { ...json, ...bearer(jwt(claims(), secret, { header: { alg: "HS512", typ: "JWT" }, hash: "sha512" })) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: alg RS256 header, HS256 signature", auth: false, headers: { ...json, ...bearer(jwt(claims(), secret, { header: { alg: "RS256", typ: "JWT" } })) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: payload changed after signing", auth: false, headers: { ...json, ...bearer(tamper(jwt(claims({ sessions: ["someone-else"] }), secret), claims())) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: four segments", auth: false, headers: { ...json, ...bearer(`${good}.x`) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: no exp (a token that never expires)", auth: false, headers: { ...json, ...bearer(jwt(claims({ exp: undefined }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: sub with CR LF (a header injection)", auth: false, headers: { ...json, ...bearer(jwt(claims({ sub: "u\r\nx-admin: 1" }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: sub outside ASCII", auth: false, headers: { ...json, ...bearer(jwt(claims({ sub: "üser" }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: exp is a string", auth: false, headers: { ...json, ...bearer(jwt(claims({ exp: "tomorrow" }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: header is not JSON", auth: false, headers: { ...json, ...bearer(`${Buffer.from("not json").toString("base64url")}.${good.split(".")[1]}.${good.split(".")[2]}`) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: 32 KiB of token", auth: false, headers: { ...json, ...bearer(`${"a".repeat(32 * 1024)}.b.c`) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: valid, sessions claim is a number", auth: false, headers: { ...json, ...bearer(jwt(claims({ sessions: 7 }), secret)) }, body: okBody, expect: err(403, "forbidden") },
    { kind: "jwt: valid, for another session", auth: false, headers: { ...json, ...bearer(jwt(claims({ sessions: ["someone-else"] }), secret)) }, body: okBody, expect: err(403, "forbidden") },
    { kind: "jwt: valid, no sessions claim", auth: false, headers: { ...json, ...bearer(jwt(claims({ sessions: undefined }), secret)) }, body: okBody, expect: err(403, "forbidden") },
    { kind: "jwt: HS256, wrong iss", auth: false, headers: { ...json, ...bearer(jwt(claims({ iss: "https://evil.example/" }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwt: HS256, no aud", auth: false, headers: { ...json, ...bearer(jwt(claims({ aud: undefined }), secret)) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    // --- JWKS (RS256 / ES256 keys of the suite's JWKS server) ---
    { kind: "jwks: RS256 signed by another key under a known kid", auth: false, headers: { ...json, ...bearer(signJwt(impostor.rsa, claims())) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: ES256 signed by another key under a known kid", auth: false, headers: { ...json, ...bearer(signJwt(impostor.ec, claims())) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: RS256 payload changed after signing", auth: false, headers: { ...json, ...bearer(tamper(signJwt(keys.rsa, claims({ sessions: ["someone-else"] })), claims())) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: RS256 expired an hour ago", auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims({ exp: now - 3600 }))) }, body: okBody, expect: err(401, "token_expired"), check: bearerChallenge },
    { kind: "jwks: ES256 wrong iss", auth: false, headers: { ...json, ...bearer(signJwt(keys.ec, claims({ iss: "https://evil.example/" }))) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: RS256 wrong aud", auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims({ aud: ["https://other.example"] }))) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: ES256 no exp", auth: false, headers: { ...json, ...bearer(signJwt(keys.ec, claims({ exp: undefined }))) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: RS256 without kid", auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims(), { kid: undefined })) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: a kid the JWKS does not have", auth: false, headers: { ...json, ...bearer(signJwt({ ...keys.rsa, kid: "no-such-key" }, claims())) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: RS256 key's kid in an ES256 header", auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims(), { alg: "ES256" })) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: alg none with a JWKS kid", auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims(), { alg: "none" }).replace(/[^.]+$/, "")) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "jwks: ES256 valid, for another session", auth: false, headers: { ...json, ...bearer(signJwt(keys.ec, claims({ sessions: ["someone-else"] }))) }, body: okBody, expect: err(403, "forbidden") },
    { kind: "jwks down: RS256 token while the JWKS answers 500", on: "jwksDown", unavailable: true, auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims())) }, body: okBody, expect: err(503, "auth_unavailable"), check: retryAfter },
    // --- AUTH_MODE=token ---
    { kind: "token: no Authorization", on: "token", auth: false, body: okBody, expect: err(401, "unauthorized"), check: bearerChallenge },
    { kind: "token: wrong token", on: "token", auth: false, headers: { ...json, ...bearer(`${secret}x`) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    { kind: "token: a JWT instead of the token", on: "token", auth: false, headers: { ...json, ...bearer(good) }, body: okBody, expect: err(401, "invalid_token"), check: bearerChallenge },
    // --- CORS (ALLOWED_ORIGINS names one origin) ---
    { kind: "cors: preflight from a listed origin", auth: false, ...preflight(origin), expect: { preflight: { allowed: true } } },
    { kind: "cors: preflight from another origin", auth: false, ...preflight("https://evil.example"), expect: { preflight: { allowed: false } } },
    { kind: "cors: 401 to a listed origin carries its CORS header", auth: false, headers: { ...json, origin }, body: okBody, expect: err(401, "unauthorized"), check: corsFor(origin) },
    { kind: "cors: 401 to another origin has no CORS header", auth: false, headers: { ...json, origin: "https://evil.example" }, body: okBody, expect: err(401, "unauthorized"), check: corsFor(null) },
    // --- the default config (AUTH_MODE none, default limits) ---
    { kind: "default: a last message over 16 MiB", on: "default", body: textBody(big(16 * 1024 * 1024)), expect: err(413, "message_too_large") },
    { kind: "default: prompt over 100,000 characters", on: "default", body: textBody(big(100_001)), expect: err(413, "prompt_too_long") },
    // --- positive controls: these must be accepted ---
    { kind: "ok: valid jwt, session listed by name", control: true, auth: false, sessionTo: (s) => ({ ...json, ...bearer(jwt(claims({ sessions: ["x", s] }), secret)) }), body: okBody, expect: { stream: true } },
    { kind: "ok: jwt expired 30 s ago (inside the skew)", control: true, auth: false, headers: { ...json, ...bearer(jwt(claims({ exp: now - 30 }), secret)) }, body: okBody, expect: { stream: true } },
    { kind: "ok: jwt nbf 30 s ahead (inside the skew)", control: true, auth: false, headers: { ...json, ...bearer(jwt(claims({ nbf: now + 30 }), secret)) }, body: okBody, expect: { stream: true } },
    { kind: "ok: stream to a listed origin carries its CORS header", control: true, headers: { ...json, origin }, body: okBody, expect: { stream: true }, check: corsFor(origin) },
    { kind: `ok: body of exactly ${limits.maxBodyBytes} bytes`, control: true, body: bodyOfSize(limits.maxBodyBytes), expect: { stream: true } },
    { kind: `ok: ${limits.maxMessages} messages`, control: true, body: messages(limits.maxMessages), expect: { stream: true } },
    { kind: `ok: prompt of exactly ${limits.maxPromptChars} characters, 2-byte UTF-8`, control: true, body: textBody(`${OK_PROMPT} ${"é".repeat(limits.maxPromptChars - OK_PROMPT.length - 1)}`), expect: { stream: true } },
    { kind: "ok: Content-Type application/json; charset=utf-8", control: true, headers: { "content-type": "application/json; charset=utf-8" }, body: okBody, expect: { stream: true } },
    { kind: "ok: query string on the chat path", control: true, path: (s) => `${chat(s)}?x=1`, body: okBody, expect: { stream: true } },
    { kind: "ok: RS256 token from the JWKS", control: true, auth: false, headers: { ...json, ...bearer(signJwt(keys.rsa, claims())) }, body: okBody, expect: { stream: true } },
    { kind: "ok: ES256 token from the JWKS, aud in an array", control: true, auth: false, headers: { ...json, ...bearer(signJwt(keys.ec, claims({ aud: ["x", audience] }))) }, body: okBody, expect: { stream: true } },
    { kind: "ok: token mode, right token", on: "token", control: true, auth: false, headers: { ...json, ...bearer(secret) }, body: okBody, expect: { stream: true } },
  ].map((k) => ({ on: "jwt", method: "POST", ...k, goodToken: good }));
}

/** The same JWT with its payload replaced by `claims` (signature kept). */
function tamper(token, claims) {
  const [header, , signature] = token.split(".");
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
}

function bearerChallenge(res) {
  const value = res.headers?.["www-authenticate"] ?? "";
  return /^Bearer\b/i.test(value) ? [] : [`WWW-Authenticate: ${JSON.stringify(value || null)}`];
}

function retryAfter(res) {
  const value = Number(res.headers?.["retry-after"]);
  return value >= 1 && value <= 10 ? [] : [`Retry-After: ${JSON.stringify(res.headers?.["retry-after"] ?? null)}`];
}

function allowHasPost(res) {
  const allow = (res.headers?.allow ?? "").split(",").map((m) => m.trim().toUpperCase());
  return allow.includes("POST") ? [] : [`Allow: ${JSON.stringify(res.headers?.allow ?? null)}`];
}

function corsFor(origin) {
  return (res) => {
    const got = res.headers?.["access-control-allow-origin"] ?? null;
    return got === origin ? [] : [`Access-Control-Allow-Origin ${JSON.stringify(got)}, expected ${JSON.stringify(origin)}`];
  };
}

export async function malformed(ctx) {
  const { workers, demoLog, expectLog } = ctx;
  const list = kinds(ctx);
  const rows = await pool(list.length, 6, async (i) => {
    const k = list[i];
    const worker = workers[k.on];
    const session = ctx.session();
    const path = typeof k.path === "function" ? k.path(session) : k.path ?? `/api/sessions/${session}/chat`;
    let headers = k.headers ?? { "content-type": "application/json" };
    if (k.sessionTo) headers = k.sessionTo(session);
    if (k.auth !== false && k.on === "jwt") headers = { ...headers, authorization: `Bearer ${k.goodToken}` };
    const payload = typeof k.body === "function" ? k.body() : k.body;
    const res = await request(`${worker.base}${path}`, { method: k.method, headers, body: payload, timeoutMs: 30_000 });
    const row = { kind: k.kind, on: k.on, status: res.status, code: null, problems: [], control: !!k.control, unavailable: !!k.unavailable };
    const single = (v) => (Array.isArray(v) ? null : v);
    expectLog(worker, res, {
      label: k.kind,
      outcome: k.expect.error ? single(k.expect.error.code) : k.expect.stream ? "finished" : undefined,
      user: k.expect.stream && k.on === "jwt" && k.auth !== false ? "user-rel" : undefined,
    });
    if (k.expect.error) {
      const checked = checkJsonError(res, k.expect.error);
      row.code = checked.code;
      row.message = checked.message;
      row.problems.push(...checked.problems);
    } else if (k.expect.stream) {
      const stream = checkStream(res);
      row.problems.push(...stream.problems);
      if (stream.ending !== "finish") row.problems.push(`ending ${stream.ending}`);
      if (res.status !== 200) {
        try { row.code = JSON.parse(res.text)?.error?.code ?? null; } catch { /* not JSON */ }
      }
      if (res.status === 200) {
        const received = await demoLog(worker, session, "received");
        const prompt = received.find((e) => e.frame?.type === "prompt");
        if (prompt?.frame?.requestId !== res.headers["x-request-id"]) {
          row.problems.push(`x-request-id ${res.headers["x-request-id"]} != prompt's requestId ${prompt?.frame?.requestId}`);
        }
      }
    } else if (k.expect.preflight) {
      if (res.status !== 204) row.problems.push(`status ${res.status}, expected 204`);
      const h = res.headers ?? {};
      if (k.expect.preflight.allowed) {
        if (h["access-control-allow-origin"] !== ctx.origin) row.problems.push(`Access-Control-Allow-Origin ${JSON.stringify(h["access-control-allow-origin"] ?? null)}`);
        if (!/\bPOST\b/i.test(h["access-control-allow-methods"] ?? "")) row.problems.push(`Access-Control-Allow-Methods ${JSON.stringify(h["access-control-allow-methods"] ?? null)}`);
        for (const name of ["authorization", "content-type"]) {
          if (!(h["access-control-allow-headers"] ?? "").toLowerCase().includes(name)) row.problems.push(`Access-Control-Allow-Headers lacks ${name}`);
        }
      } else {
        const cors = Object.keys(h).filter((n) => n.startsWith("access-control-"));
        if (cors.length) row.problems.push(`CORS headers for an origin not listed: ${cors.join(", ")}`);
      }
      if (!h["x-request-id"]) row.problems.push("no x-request-id");
    }
    if (k.check && res.status !== null) row.problems.push(...k.check(res));
    if (res.status >= 500 && !k.unavailable) row.problems.unshift(`5xx: ${res.status}`);
    if (res.networkError || res.timedOut) row.problems.unshift(res.timedOut ? "timed out" : `network error: ${res.networkError}`);
    row.expected = k.expect.error ? `${[k.expect.error.status].flat().join("|")} ${[k.expect.error.code].flat().join("|")}` : k.expect.stream ? "200 stream" : "204 preflight";
    return row;
  });

  const bad = rows.filter((r) => !r.control && !r.kind.startsWith("cors: preflight"));
  const fiveXX = rows.filter((r) => (r.status >= 500 && !r.unavailable) || r.status === null);
  const wrong = rows.filter((r) => r.problems.length);
  return {
    name: "malformed",
    figures: [
      { figure: "malformed request kinds answered as documented", n: bad.length, value: `${bad.filter((r) => !r.problems.length).length}/${bad.length}`, pass: bad.every((r) => !r.problems.length) },
      { figure: "5xx (or no answer) for bad input", n: rows.length, value: String(fiveXX.length), pass: fiveXX.length === 0 },
      { figure: "CORS preflights as documented", n: rows.filter((r) => r.kind.startsWith("cors: preflight")).length,
        value: `${rows.filter((r) => r.kind.startsWith("cors: preflight") && !r.problems.length).length}/${rows.filter((r) => r.kind.startsWith("cors: preflight")).length}`,
        pass: rows.filter((r) => r.kind.startsWith("cors: preflight")).every((r) => !r.problems.length) },
      { figure: "well-formed controls accepted (200, valid stream)", n: rows.filter((r) => r.control).length,
        value: `${rows.filter((r) => r.control && !r.problems.length).length}/${rows.filter((r) => r.control).length}`,
        pass: rows.filter((r) => r.control).every((r) => !r.problems.length) },
    ],
    table: rows.map((r) => ({ kind: r.kind, on: r.on, expected: r.expected, status: r.status, code: r.code, ok: r.problems.length === 0 })),
    failures: wrong.map((r) => `${r.kind} [${r.on}]: ${r.problems.join("; ")}`),
    detail: { rows },
  };
}
