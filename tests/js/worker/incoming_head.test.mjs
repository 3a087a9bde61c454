// The request's head as crates/adapter/src/inbound/incoming.js reads it for crates/core/src/request_head.rs: the fields in
// order, a header the request lacks as a lone "\0", and only the headers asked for, the
// preflight's for a preflight only (each `get` is a call into the runtime).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readHead } from "../../../crates/adapter/src/inbound/incoming.js";

const ABSENT = "\0";

/** Every header (crates/core/src/request_head.rs's `HeaderSet::ALL`). */
const ALL = 0b1111111111;

/** The head's lines (its UTF-8 decoded), without the one "" after the last "\n". */
function linesOf(bytes) {
  assert.ok(bytes instanceof Uint8Array);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  assert.ok(text.endsWith("\n"));
  return text.slice(0, -1).split("\n");
}

const HEADERS = {
  origin: "https://app.example",
  "content-type": "application/json",
  "content-length": "2",
  authorization: "Bearer t",
  "cf-connecting-ip": "203.0.113.7",
  "x-questions": "approvals",
  "last-event-id": "3f9a0c1d2b4e5f60",
  range: "bytes=0-99",
  "x-conversations-key": "0f8fad5b-d9cb-469f-a165-70867728950e",
  "access-control-request-headers": "content-type, authorization",
};

test("a POST's head: its id, time, method, URL and headers in order; the preflight's header absent", () => {
  const before = Date.now();
  const request = new Request("https://adapter.example/api/sessions/s-1/chat", { method: "POST", headers: HEADERS, body: "{}" });
  const [id, time, method, url, ...headers] = linesOf(readHead(request, ALL));
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(Number(time) >= before && Number(time) <= Date.now());
  assert.equal(method, "POST");
  assert.equal(url, "https://adapter.example/api/sessions/s-1/chat");
  assert.deepEqual(headers, ["https://app.example", "application/json", "2", "Bearer t", "203.0.113.7", "approvals", "3f9a0c1d2b4e5f60", "bytes=0-99", "0f8fad5b-d9cb-469f-a165-70867728950e", ABSENT]);
});

test("a preflight's head carries access-control-request-headers", () => {
  const request = new Request("https://adapter.example/api/sessions/s-1/chat", { method: "OPTIONS", headers: HEADERS });
  const lines = linesOf(readHead(request, ALL));
  assert.equal(lines[2], "OPTIONS");
  assert.equal(lines.at(-1), "content-type, authorization");
});

test("a header the request lacks is a lone NUL; an empty one stays empty", () => {
  const request = new Request("https://adapter.example/", { method: "OPTIONS", headers: { origin: "" } });
  const headers = linesOf(readHead(request, ALL)).slice(4);
  assert.deepEqual(headers, ["", ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT]);
});

test("each request gets an id of its own", () => {
  const request = new Request("https://adapter.example/");
  assert.notEqual(linesOf(readHead(request, ALL))[0], linesOf(readHead(request, ALL))[0]);
});

test("a header's bytes past ASCII arrive as UTF-8, as a string handed to WebAssembly did", () => {
  // A header value is a byte string: `get` gives each byte as the character of that code.
  const request = new Request("https://adapter.example/", { headers: { origin: "https://caf\u00e9.example" } });
  const bytes = readHead(request, ALL);
  const origin = linesOf(bytes)[4];
  assert.equal(origin, "https://caf\u00e9.example");
  const utf8 = new TextEncoder().encode("caf\u00e9");
  assert.ok(Buffer.from(bytes).includes(Buffer.from(utf8)), "U+00E9 as the two bytes C3 A9");
});

test("only the headers asked for are read: any other is absent, though the request carries it", () => {
  const request = new Request("https://adapter.example/api/sessions/s-1/chat", { method: "OPTIONS", headers: HEADERS });
  // Neither Origin (bit 0) nor Authorization (bit 3).
  const read = ALL & ~0b1001;
  const headers = linesOf(readHead(request, read)).slice(4);
  assert.deepEqual(headers, [ABSENT, "application/json", "2", ABSENT, "203.0.113.7", "approvals", "3f9a0c1d2b4e5f60", "bytes=0-99", "0f8fad5b-d9cb-469f-a165-70867728950e", "content-type, authorization"]);
  const gets = [];
  const counted = { method: "POST", url: "https://adapter.example/", headers: { get: (name) => (gets.push(name), null) } };
  readHead(counted, read);
  assert.deepEqual(gets, ["content-type", "content-length", "cf-connecting-ip", "x-questions", "last-event-id", "range", "x-conversations-key"], "one `get` per header asked for");
});
