// Settling a promise into one callback: `callback(slot, generation, true, value)` or
// `callback(slot, generation, false, error)`, once. The callback is the same Rust function for
// every promise, and the key (slot, generation) says which promise it was: awaiting a promise
// makes no Rust closure (crates/platform/src/promise.rs).

export function settle(promise, slot, generation, callback) {
  promise.then(
    (value) => callback(slot, generation, true, value),
    (error) => callback(slot, generation, false, error),
  );
}
