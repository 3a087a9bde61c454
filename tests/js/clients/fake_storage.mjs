// The widget tests' stand-in for the browser's `localStorage` (Node has none): a Storage over a
// Map the test holds, so that it can look at exactly what the widget kept.

/** A `localStorage` whose items live in `store` (a Map of key to string). */
export function fakeLocalStorage(store) {
  return {
    get length() {
      return store.size;
    },
    key: (i) => [...store.keys()][i] ?? null,
    getItem: (k) => store.get(k) ?? null,
    setItem: (k, v) => store.set(k, String(v)),
    removeItem: (k) => store.delete(k),
  };
}
