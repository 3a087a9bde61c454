// A minimal client of workerd's V8 inspector (Chrome DevTools Protocol), for one worker's
// isolate: `ws://127.0.0.1:<inspectorPort>/core:user:<worker>`.
import WebSocket from "ws";

export async function inspect(port, worker) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/core:user:${worker}`);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let next = 0;
  const pending = new Map();
  socket.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      next += 1;
      pending.set(next, resolve);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  return {
    call,
    /** The isolate's JS heap now, in bytes, garbage included. */
    async heap() {
      await call("Runtime.enable");
      const { result } = await call("Runtime.getHeapUsage");
      return { used: result.usedSize, total: result.totalSize };
    },
    /**
     * The isolate's JS heap after a full collection, in bytes: what is still reachable. workerd's
     * inspector answers no `HeapProfiler.collectGarbage`, but V8 collects everything before it
     * takes a heap snapshot (whose chunks, sent as events, are ignored here).
     */
    async liveHeap() {
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      return this.heap();
    },
    close: () => socket.close(),
  };
}
