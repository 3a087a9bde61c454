// The pump's JavaScript side: the events of one stream (the agent's socket, the clock, a client
// that went away) handed to the Rust pump in as few calls into WebAssembly as possible, and the
// response body the pump writes to. What it does (bursts, quiet ticks, ordering, a lost
// instance) is told once, in crates/adapter/src/pump/mod.rs; here, what is particular to this
// side:
//
// - workerd runs each WebSocket message as its own task, and a call into WebAssembly a message
//   costs more than translating the frame: the text frames of one turn of the event loop are
//   collected and handed over after a 0 ms timer, joined by U+001E, the record separator of
//   RFC 7464 (JSON text never holds it raw: RFC 8259, section 7), as UTF-8 bytes from the
//   runtime's TextEncoder (handed a string, wasm-bindgen copies it one character at a time in
//   JavaScript, which cost more than parsing the frames; a byte array is one native call).
// - Each callback answers whether the next tick is quiet (1) or not (0); a quiet tick is counted
//   here (`absorbed`) and goes with the next delivery.
// - The instance check: workers-rs's panic hook marks its instance lost
//   (`globalThis.__worker_init_state`: `criticalError`, and a new `instanceId` once it is
//   replaced; ARCHITECTURE.md's ledger). Calling it anyway is worse than useless: wasm-bindgen's
//   glue starts the next instance on the first call after a trap and runs the old instance's
//   callback in it, on memory that is not its own (seen: the engine's `emit` ran there, and threw
//   on a writer that was not one).
//
// The event kinds are numbers shared with crates/adapter/src/pump/wiring.rs, under the same names there
// (tests/js/worker/wire_constants.test.mjs holds the two copies equal).

const RECORD_SEPARATOR = "\u001e";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The agent's socket's close code once the receiver is lost: "an unexpected condition" (RFC
 * 6455, section 7.4.1; `INTERNAL_ERROR` in crates/platform/src/socket.rs). */
const CLOSE_INTERNAL_ERROR = 1011;
/** Each body's crash ending (see "A lost receiver"), by its writer: `{ bytes, at }`, `at` the
 * `Date.now()` when the receiver made it. */
const crashEndings = new WeakMap();
/** The crash ending of a body whose receiver wrote its own ending: nothing may follow it. */
const NO_ENDING = { bytes: new Uint8Array(0), at: 0 };
/** The crash ending of every body whose receiver handed over none: its turn had not opened. */
let unopenedCrashEnding;
/** The longest `detail` of a log line, as every line of the worker's log has it
 * (`MAX_DETAIL_CHARS` of crates/core/src/diagnostic.rs; tests/js/worker/wire_constants.test.mjs). */
const MAX_DETAIL_CHARS = 300;
export const TICK = 0;
export const SOCKET_CLOSED = 1;
export const SOCKET_FAILED = 2;
export const CLIENT_SIGNAL = 3;
export const CLIENT_STREAM = 4;
export const BINARY_FRAME = 5;
export const UNSPLITTABLE_FRAME = 6;

/**
 * Starts delivering the events of one stream; returns `[stop, done]`: the function that stops
 * it, and a promise that resolves when it has been stopped. (An array, which wasm-bindgen hands
 * over whole: an object's fields would be a call each.)
 *
 * request: the client's request, whose `signal` fires when the client goes away (where the
 * runtime has it), or null.
 *
 * onFrames(bytes, absorbed): the text frames of one burst, joined by U+001E, as UTF-8 (a
 * Uint8Array).
 * onEvent(kind, code, absorbed): any other event; `code` is the close code for SOCKET_CLOSED,
 * else 0.
 * Both: `absorbed` is the number of quiet ticks (0 or 1) since the last delivery, to be applied
 * before this one; they return 1 when the next tick is quiet, else 0.
 *
 * unopenedEnding: the crash ending of any stream whose turn has not opened (a view of WebAssembly
 * memory, copied), kept for every stream from then on; or undefined, to keep the one kept.
 */
export function wire(socket, writer, request, tickMs, onFrames, onEvent, unopenedEnding) {
  // Read here, not in Rust: a property read is a call across the boundary there.
  const signal = request?.signal;
  // workers-rs's record of its instance; undefined under a workers-rs that keeps none, where
  // only a callback that throws shows the loss.
  const instance = globalThis.__worker_init_state;
  const instanceId = instance?.instanceId;
  if (unopenedEnding !== undefined) unopenedCrashEnding = { bytes: unopenedEnding.slice(), at: Date.now() };
  let frames = [];
  let timer;
  let stopped = false;
  let quiet = false;
  let absorbed = 0;
  let settle;
  const done = new Promise((resolve) => (settle = resolve));

  // The quiet ticks since the last delivery, handed over once.
  const takeAbsorbed = () => {
    const n = absorbed;
    absorbed = 0;
    return n;
  };
  // Whether the instance the callbacks live in is lost (see "A lost receiver").
  const lost = () => instance !== undefined && (instance.criticalError === true || instance.instanceId !== instanceId);
  // Ends the body in the receiver's place, once: with its crash ending, unless its own ending is
  // written (it stopped the wiring, or handed over NO_ENDING), when only the closes may be missing.
  const lose = (error) => {
    const ending = stopped ? NO_ENDING : (crashEndings.get(writer) ?? unopenedCrashEnding);
    stop();
    if (ending !== undefined && ending.bytes.length > 0) writer.write(aged(ending)).catch(ignore);
    writer.close().catch(ignore);
    try {
      socket.close(CLOSE_INTERNAL_ERROR, "adapter lost");
    } catch {
      // Already closed.
    }
    const what = ending === undefined ? "closed the stream, with no ending to send" : ending === NO_ENDING ? "closed the stream it had ended" : "ended the stream with its crash ending";
    const detail = `the WebAssembly instance was lost; the wiring ${what}${error === undefined ? "" : `: ${error}`}`;
    // One JSON object, as every line of the worker's log (crates/core/src/diagnostic.rs).
    console.error(JSON.stringify({ level: "error", event: "instance_lost", detail: detail.slice(0, MAX_DETAIL_CHARS) }));
  };
  // Each timer call is a call into the runtime: a timer that fired is not cleared.
  const deliver = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (stopped || frames.length === 0) return;
    if (lost()) return lose();
    const text = frames.length === 1 ? frames[0] : frames.join(RECORD_SEPARATOR);
    frames = [];
    try {
      quiet = onFrames(encoder.encode(text), takeAbsorbed()) === 1;
    } catch (error) {
      lose(error);
    }
  };
  const event = (kind, code = 0) => {
    deliver();
    if (stopped) return;
    if (lost()) return lose();
    try {
      quiet = onEvent(kind, code, takeAbsorbed()) === 1;
    } catch (error) {
      lose(error);
    }
  };
  const onTick = () => {
    // A quiet tick calls nothing, but a loss is seen within a tick all the same.
    if (!stopped && lost()) return lose();
    if (quiet && frames.length === 0) {
      quiet = false;
      absorbed += 1;
      return;
    }
    event(TICK);
  };

  const onMessage = (message) => {
    if (stopped) return;
    const data = message.data;
    if (typeof data !== "string") return event(BINARY_FRAME);
    if (data.includes(RECORD_SEPARATOR)) return event(UNSPLITTABLE_FRAME);
    frames.push(data);
    timer ??= setTimeout(onTimer, 0);
  };
  const onTimer = () => {
    timer = undefined;
    deliver();
  };
  const onClose = (close) => event(SOCKET_CLOSED, close.code);
  const onError = () => event(SOCKET_FAILED);
  const onAbort = () => event(CLIENT_SIGNAL);
  const onStreamEnd = () => event(CLIENT_STREAM);

  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", onClose);
  socket.addEventListener("error", onError);
  // `closed` settles only when the body ends; the pump stops this wiring before it closes the
  // body, so either outcome here means the client's side ended it.
  writer.closed.then(onStreamEnd, onStreamEnd);
  if (signal) {
    if (signal.aborted) queueMicrotask(onAbort);
    else signal.addEventListener("abort", onAbort);
  }
  const interval = setInterval(onTick, tickMs);

  // The listeners stay: each does nothing once `stopped` is set, and removing them would be four
  // more calls into the runtime a stream; the socket is closed and the request over soon after,
  // and the listeners go with them.
  const stop = () => {
    stopped = true;
    frames = [];
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    clearInterval(interval);
    settle();
  };
  return [stop, done];
}

/**
 * Opens the response body of one stream, in one call: returns `[writer, response, desiredSize]`,
 * the writable side's writer, the response that streams the readable side with `init` (its
 * status and headers) and `x-request-id: requestId`, and the writer's `desiredSize` to start with.
 * (An array, which wasm-bindgen hands over whole: an object's fields would be a call each.)
 */
export function openBody(init, requestId) {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  // The id goes in with the init's headers: the response builds its `Headers` once, where
  // setting it afterwards is one more call into the runtime.
  const headers = { ...init.headers, "x-request-id": requestId };
  const response = new Response(readable, { status: init.status, headers });
  return [writer, response, writer.desiredSize];
}

/**
 * Writes a copy of `bytes` (a view of WebAssembly memory, valid only during this call; nothing
 * when empty) to the body. A failed write errors the body, which `writer.closed` reports: the
 * promise only needs a handler. `crashEnding`, when given, replaces the body's crash ending (see
 * "A lost receiver"), copied likewise.
 */
export function write(writer, bytes, crashEnding) {
  if (bytes.length > 0) writer.write(bytes.slice()).catch(ignore);
  if (crashEnding !== undefined) keepCrashEnding(writer, crashEnding);
}

/** Closes the body after the chunks written; a client that left makes it reject, which is fine. */
export function close(writer) {
  writer.close().catch(ignore);
}

function keepCrashEnding(writer, bytes) {
  crashEndings.set(writer, bytes.length === 0 ? NO_ENDING : { bytes: bytes.slice(), at: Date.now() });
}

/** A crash ending as it stands now: its finish's `durationMs` grown by the time since `at`. */
function aged({ bytes, at }) {
  const since = Date.now() - at;
  if (!(since > 0)) return bytes;
  return encoder.encode(ageCrashEnding(decoder.decode(bytes), since));
}

/** Where the finish chunk starts in a stream's text: an SSE data line (crates/core/src/sse.rs). */
const FINISH_LINE = 'data: {"type":"finish"';
const DURATION_KEY = '"durationMs":';

/**
 * `text`, a crash ending, with its finish's `durationMs` (the turn's time when the ending was
 * made) grown by `since` ms. Only the finish's key is changed: the ending may hold a pending
 * tool's raw input before it (`tool-input-available`), whose keys may be anything, `durationMs`
 * and a `"type":"finish"` too; but a chunk's strings are JSON, their quotes escaped, so
 * `data: {"type":"finish"` starts a line only where a finish chunk does, and the ending's
 * finish is its last chunk but `[DONE]`.
 */
export function ageCrashEnding(text, since) {
  const finish = text.lastIndexOf(FINISH_LINE);
  if (finish < 0) return text;
  const key = text.indexOf(DURATION_KEY, finish);
  if (key < 0) return text;
  const from = key + DURATION_KEY.length;
  let to = from;
  while (to < text.length && text.charCodeAt(to) >= 48 && text.charCodeAt(to) <= 57) to++;
  if (to === from) return text;
  return `${text.slice(0, from)}${Number(text.slice(from, to)) + since}${text.slice(to)}`;
}

function ignore() {}
