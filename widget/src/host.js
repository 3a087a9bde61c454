// The panel's host element, <session-agent-chat>, as a custom element that notices being taken
// out of the page: a framework that re-renders <body> (or the element an inline panel fills)
// drops it with everything else, and the panel would go on, invisible, with `open()` doing
// nothing. Its disconnectedCallback lets the loader put it back: the same element, so its shadow
// root, the conversation and a stream under way come back as they were.

export const HOST_TAG = "session-agent-chat";

/** Set on a host by the loader: called when the host has left the document. */
const ON_DISCONNECT = Symbol.for("session-agent-chat:on-disconnect");

/** Most returns in a second: past it, something takes the host out as fast as it comes back. */
export const MAX_RETURNS_PER_SECOND = 10;

function define() {
  if (typeof customElements === "undefined" || customElements.get(HOST_TAG)) return;
  customElements.define(
    HOST_TAG,
    class extends HTMLElement {
      disconnectedCallback() {
        this[ON_DISCONNECT]?.();
      }
    },
  );
}

/**
 * A new host. `target()` is where it belongs (document.body, or the inline panel's element; null
 * while that is not in the page). Once the host has left the document it goes back into
 * `target()` at once, or as soon as that appears; `stop()` ends this (the panel is unmounted).
 */
export function createHost(target) {
  define();
  const host = document.createElement(HOST_TAG);
  let observer = null;
  let returns = [];
  let stopped = false;
  const watchFor = () => {
    if (observer) return;
    observer = new MutationObserver(() => putBack());
    observer.observe(document.documentElement, { childList: true, subtree: true });
  };
  const putBack = () => {
    if (stopped || host.isConnected) return unwatch();
    const place = target();
    if (!place) return watchFor();
    const now = Date.now();
    returns = returns.filter((at) => now - at < 1000);
    if (returns.length >= MAX_RETURNS_PER_SECOND) {
      console.error(`AgentChat: the page keeps removing <${HOST_TAG}>; it stays out (call AgentChat.init again to bring it back)`);
      stopped = true;
      return unwatch();
    }
    returns.push(now);
    place.appendChild(host);
    unwatch();
  };
  const unwatch = () => {
    observer?.disconnect();
    observer = null;
  };
  // After the removal's own work (a body replaced, a subtree re-rendered): then put it back.
  host[ON_DISCONNECT] = () => queueMicrotask(putBack);
  return {
    host,
    /** Puts the host back now if it is out of the page (before `open()` or `send()`). */
    ensureConnected: putBack,
    stop() {
      stopped = true;
      unwatch();
    },
  };
}
