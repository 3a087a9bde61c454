// The request in as few calls into JavaScript as possible (crates/adapter/src/inbound/incoming.rs): its head, and
// its body's bytes.
//
// The head in one call: the id and the time the edge gives the request, its method, its URL and
// the headers some route reads, as one text that crates/core/src/request_head.rs parses. Read one by one from Rust, the same is fourteen calls across the WebAssembly boundary,
// most with a string to copy (`req.headers()` alone makes a new `Headers` handle each time).
//
// The text: a random UUID, `Date.now()`, the method, the URL, then each header of HEADERS, each
// ended by "\n"; a header the request does not carry is a lone "\0". Neither character can be in
// a field (see crates/core/src/request_head.rs). It goes over as UTF-8 bytes from the runtime's TextEncoder,
// as the agent's frames do (crates/adapter/src/pump/wiring.js): handed a string, wasm-bindgen copies it
// into WebAssembly memory one character at a time in JavaScript.

/** The headers read, in the order of crates/core/src/request_head.rs's `Field` (a test there checks it). */
const HEADERS = ["origin", "content-type", "content-length", "authorization", "cf-connecting-ip", "x-questions", "last-event-id", "range", "x-conversations-key", "access-control-request-headers"];

/** The last of HEADERS, which only a preflight reads: any other request gets it as absent. */
const PREFLIGHT_ONLY = HEADERS.length - 1;

const ABSENT = "\0";

const encoder = new TextEncoder();

/**
 * The head of `request` (a `Request`), as crates/core/src/request_head.rs's `RequestHead::parse` reads it, in
 * UTF-8 (a Uint8Array). `read`: the headers to read, a bit each in HEADERS's order (its
 * `HeaderSet`); any other is written as absent.
 */
export function readHead(request, read) {
  const headers = request.headers;
  const method = request.method;
  let text = `${crypto.randomUUID()}\n${Date.now()}\n${method}\n${request.url}\n`;
  // Each `get` is a call into the runtime: only the headers the settings use are read, and the
  // preflight's for an OPTIONS only.
  if (method !== "OPTIONS") read &= ~(1 << PREFLIGHT_ONLY);
  for (let i = 0; i < HEADERS.length; i++) {
    const value = (read >> i) & 1 ? headers.get(HEADERS[i]) : null;
    text += `${value ?? ABSENT}\n`;
  }
  return encoder.encode(text);
}

/**
 * The bytes of `buffer` (the body's `ArrayBuffer`), which wasm-bindgen copies into WebAssembly
 * memory as the call returns: one call, where `Uint8Array::to_vec` from Rust makes five (the
 * view, its length three times, the copy).
 */
export function bytesOf(buffer) {
  return new Uint8Array(buffer);
}
