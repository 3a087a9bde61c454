// The sign that a session feed's client went away (crates/adapter/src/feed/task.rs), as one
// promise: the body's writer closed or errored (a failed write, a cancelled body), or the
// request's signal (compatibility flag `enable_request_signal`). workerd learns of a client that
// reset its connection (RST) at once, of one that closed it (FIN) only when it next writes to it:
// the feed's keep-alive, every 5 s, is that write.

/** A promise that resolves once `writer` (the body's) is closed or errored, or `request`'s signal fires. */
export function clientGone(writer, request) {
  return new Promise((resolve) => {
    writer.closed.then(resolve, resolve);
    const signal = request?.signal;
    if (signal === undefined || signal === null) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
