// localStorage that never throws (sandboxed frames and blocked storage read as empty), and the
// one prefix every key of the widget's starts with, so that `logout` can forget them all.

/** Every key the widget stores starts with this. */
export const STORAGE_PREFIX = "session-agent-chat:";

export function readStored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered: the panel works the same for this page view.
  }
}

export function removeStored(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage is blocked: nothing was stored.
  }
}

/** Removes every key of the widget's (`logout`): sessions of every user and instance, choices. */
export function forgetStored() {
  try {
    const keys = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage is blocked: nothing was stored.
  }
}
