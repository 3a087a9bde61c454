// What is left of a request body the worker answered without reading, read and dropped in
// JavaScript (crates/adapter/src/inbound/drain.rs): its chunks are counted, never copied into
// WebAssembly memory, and a client that stops sending is not waited for past `idleMs`.

/**
 * Reads `request`'s body to its end and drops it, stopping once more than `limit` bytes came or
 * no chunk came for `idleMs`. Resolves with the bytes read; never rejects (a body that fails to
 * read has nothing more to drain).
 */
export async function drainBody(request, limit, idleMs) {
  if (request.bodyUsed || request.body === null) return 0;
  const reader = request.body.getReader();
  let read = 0;
  try {
    while (read <= limit) {
      let timer;
      const idle = new Promise((resolve) => {
        timer = setTimeout(resolve, idleMs, null);
      });
      const next = await Promise.race([reader.read(), idle]);
      clearTimeout(timer);
      if (next === null || next.done) break;
      read += next.value.byteLength;
    }
  } catch {
    // Unreadable: nothing more to drain.
  }
  reader.cancel().catch(() => {});
  return read;
}
