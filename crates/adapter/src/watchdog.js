// The session feeds' watchdog for a lost WebAssembly instance (crates/adapter/src/watchdog.rs).
// A feed's task is Rust: once the instance traps (a panic: the adapter's own or, where the agent
// shares the instance, as in the local demo, the agent's), no Rust code runs again, and the feed
// would stay open, silent, for good. Each watched feed has a timer of its own, in JavaScript, that
// checks workers-rs's record of its instance (`globalThis.__worker_init_state`, as
// crates/adapter/src/pump/wiring.js does for a turn's stream); once the feed's instance is lost it
// closes the feed's body (its client reconnects, with its Last-Event-ID, to a new instance) and
// its socket to the agent (1011), and logs `instance_lost`. A timer of its own, not one for the
// isolate: a feed's body and socket belong to its request, and workerd refuses another request's
// timer to touch them. It calls nothing in WebAssembly: a check is a property read.

/** The agent's socket's close code then: "an unexpected condition" (RFC 6455, section 7.4.1). */
const CLOSE_INTERNAL_ERROR = 1011;
/** The longest `detail` of a log line (`MAX_DETAIL_CHARS` of crates/core/src/diagnostic.rs). */
const MAX_DETAIL_CHARS = 300;

/** Each watched feed's timer, by its body's writer. */
const timers = new WeakMap();

/** Whether the instance `id` is lost: it trapped, or another replaced it. Under a workers-rs that
 * keeps no record, never. */
function lost(id) {
  const state = globalThis.__worker_init_state;
  if (state === undefined) return false;
  return state.instanceId !== id || state.criticalError === true;
}

/**
 * Watches the feed whose body `writer` writes and whose agent's socket is `socket`, from the
 * instance running now, every `periodMs`; a feed watched again (its socket replaced) keeps one
 * timer, on its new socket.
 */
export function watchFeed(writer, socket, periodMs) {
  unwatchFeed(writer);
  const instanceId = globalThis.__worker_init_state?.instanceId;
  const timer = setInterval(() => {
    if (!lost(instanceId)) return;
    unwatchFeed(writer);
    writer.close().catch(() => {});
    try {
      socket.close(CLOSE_INTERNAL_ERROR, "adapter lost");
    } catch {
      // Already closed.
    }
    const detail = "the WebAssembly instance was lost; the watchdog ended a session feed, whose client reconnects";
    // One JSON object, as every line of the worker's log (crates/core/src/diagnostic.rs).
    console.error(JSON.stringify({ level: "error", event: "instance_lost", detail: detail.slice(0, MAX_DETAIL_CHARS) }));
  }, periodMs);
  timers.set(writer, timer);
}

/** Stops watching the feed of `writer` (it ended in Rust, as it should). */
export function unwatchFeed(writer) {
  const timer = timers.get(writer);
  if (timer === undefined) return;
  clearInterval(timer);
  timers.delete(writer);
}
