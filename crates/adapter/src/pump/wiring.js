// The pump's JavaScript side: the events of one stream (the agent's socket, the clock, a client
// that went away) handed to the Rust pump in as few calls into WebAssembly as possible, and the
// response body the pump writes to.
//
// workerd runs each WebSocket message as its own task. Calling into WebAssembly, and waking a
// Rust future, once per message costs more than translating the frame. So the text frames that
// arrive in one turn of the event loop are collected here and handed over in one call, after a
// 0 ms timer, joined by U+001E, the record separator of RFC 7464: JSON text never holds it raw
// (RFC 8259, section 7: control characters in strings are escaped, and none is whitespace).
// They go over as UTF-8 bytes from the runtime's TextEncoder: handed a string, wasm-bindgen
// copies it into WebAssembly memory one character at a time in JavaScript, which cost more
// than parsing the frames; a byte array is copied in one native call.
//
// Ticks: the clock ticks every `tickMs` for keep-alives and timeouts, but most ticks of a stream
// that is writing change nothing but the pump's counters. So each callback answers whether the
// next tick would be such a quiet one (1) or not (0); a quiet tick is not delivered but counted,
// and the count goes with the next delivery (`absorbed`), which the pump applies first. Only the
// first tick after a delivery can be absorbed: the one after it is always delivered.
//
// Ordering: every other event first hands over the frames that came before it, so the pump sees
// the events in the order they happened. After `stop()`, nothing more is delivered, and `done`
// settles: the request's `waitUntil` holds it, so the stream's end is all that keeps the request
// alive (no task or promise of the pump's own waits for it).
//
// A lost receiver: a trap of the WebAssembly instance (a Rust panic: the pump's own, or, where
// the agent's Durable Object runs in the same instance, as in the local demo, the agent's) leaves
// no Rust code to end the stream, and the client would wait for an end until it gave up. So the
// receiver hands over, ahead of time, the bytes that end its body then (`write`'s `crashEnding`:
// a part or a tool closed, an `error`, `finish`, `[DONE]`), only when they change (a part or a
// tool opens or closes: never for a delta, which costs nothing more). Until it has, its turn has
// not opened, and the ending is every such stream's (`error`, `finish`, `[DONE]`), which `wire`
// gets once per WebAssembly instance (`unopenedEnding`) and keeps for all.
//
// Before each call into WebAssembly the wiring checks that the instance is still the one it
// started with: workers-rs's panic hook marks it lost (`globalThis.__worker_init_state`, worker
// 0.8.7's src/init.rs: `criticalError`, and a new `instanceId` once it is replaced). Calling it
// anyway is worse than useless: wasm-bindgen's glue starts the next instance on the first call
// after a trap and runs the old instance's callback in it, on memory that is not its own (seen:
// the engine's `emit` ran there, and threw on a writer that was not one). A callback that throws
// (a trap in the call itself, or an instance that is gone) counts as lost too. Then, within a
// tick (`tickMs`), the wiring writes the ending (its finish's `durationMs` grown by the time
// since it was made), closes the body and the agent's socket (the agent applies the prompt's
// disconnect policy, as for any adapter that goes away), logs the loss and stops.
//
// The event kinds are numbers shared with crates/adapter/src/pump/wiring.rs, under the same names there
// (tests/js/wire_constants.test.mjs holds the two copies equal).

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
 * (`MAX_DETAIL_CHARS` of crates/core/src/diagnostic.rs; tests/js/wire_constants.test.mjs). */
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

/**
 * A crash ending as it stands now: its finish's `durationMs` (the turn's time so far, as of `at`)
 * grown by the time since. Only a key can match: every string of a chunk is JSON, whose quotes
 * inside strings are escaped, and only the finish's metadata has this key.
 */
function aged({ bytes, at }) {
  const since = Date.now() - at;
  if (!(since > 0)) return bytes;
  const text = decoder.decode(bytes).replace(/"durationMs":(\d+)/, (_, ms) => `"durationMs":${Number(ms) + since}`);
  return encoder.encode(text);
}

function ignore() {}
