// Settling a promise into one callback: `callback(true, value)` or `callback(false, error)`,
// once. wasm-bindgen's own future for a promise hands `then` two Rust closures, one of which is
// never called; with this, awaiting a promise makes one (src/platform/promise.rs).

export function settle(promise, callback) {
  promise.then(
    (value) => callback(true, value),
    (error) => callback(false, error),
  );
}
