// The page's events (`AgentChat.on`, `off`): a registry of listeners by event name, for the page
// as a whole (global.js) and for each panel (instance.js). A listener that throws is named in the
// console and the others still run.

export const GLOBAL_NAME = "AgentChat";

/** The events a page can listen to with `on(name, fn)`. */
export const EVENT_NAMES = ["ready", "open", "close", "message", "unread", "error", "conversation"];

/** Listeners by event: { on(event, fn), off(event, fn), emit(event, detail) }. */
export function createEvents() {
  const listeners = new Map(EVENT_NAMES.map((event) => [event, new Set()]));
  return {
    on(event, listener) {
      if (!listeners.has(event)) console.error(`${GLOBAL_NAME}: no event "${event}" (events: ${EVENT_NAMES.join(", ")})`);
      else if (typeof listener === "function") listeners.get(event).add(listener);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    emit(event, detail) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          listener(detail);
        } catch (error) {
          console.error(`${GLOBAL_NAME}: a "${event}" listener threw`, error);
        }
      }
    },
  };
}
