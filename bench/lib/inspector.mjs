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
  /** The isolate's execution context (`Runtime.enable` announces it), where expressions run. */
  let contextId;
  /** The inspector's handle on the isolate's WebAssembly memories, once found. */
  let memories;
  socket.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.method === "Runtime.executionContextCreated") contextId = msg.params.context.id;
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
    /** `Runtime.getHeapUsage` as it is, garbage included: `usedSize` (the JS heap) and
     * `backingStorageSize` (ArrayBuffers' bytes outside it; a WebAssembly memory not among them). */
    async usage() {
      const { result, error } = await call("Runtime.getHeapUsage");
      if (error) throw new Error(`Runtime.getHeapUsage: ${error.message}`);
      return result;
    },
    /**
     * The bytes of the isolate's WebAssembly memories (each `WebAssembly.Memory`'s buffer), which
     * only grow: what its wasm ever held at once, give or take the allocator's rounding. The first
     * call finds them (V8's `queryObjects`, which collects first); later calls read the same
     * objects, with no collection, so it can be sampled while a request runs.
     */
    async wasmMemory() {
      if (memories === undefined) {
        await call("Runtime.enable");
        const proto = await call("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype", contextId });
        if (proto.error) throw new Error(`Runtime.evaluate: ${proto.error.message}`);
        const found = await call("Runtime.queryObjects", { prototypeObjectId: proto.result.result.objectId, objectGroup: "bench" });
        if (found.error) throw new Error(`Runtime.queryObjects: ${found.error.message}`);
        memories = found.result.objects.objectId;
      }
      const read = await call("Runtime.callFunctionOn", {
        objectId: memories,
        functionDeclaration: "function () { return this.reduce((sum, m) => sum + m.buffer.byteLength, 0); }",
        returnByValue: true,
      });
      if (read.error) throw new Error(`Runtime.callFunctionOn: ${read.error.message}`);
      return read.result.result.value;
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
