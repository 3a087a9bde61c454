// A TCP proxy in front of the worker, standing for what lies between a client and it on a real
// network: it can cut a connection that carried nothing for a while (a proxy's or a carrier's idle
// timeout: thin_link.test.mjs), or cut every connection at once without a close, as the network
// does to a phone app the OS suspended (background.test.mjs).
import net from "node:net";

/**
 * Starts a proxy to `target` (a URL) on a free port of 127.0.0.1. With `idleMs`, a connection
 * with no byte either way for that long is destroyed on both sides, and the time is pushed on
 * `cut`. `cutAll()` resets every open connection on both sides (a TCP RST each way, no FIN, no
 * HTTP-level close) and returns how many it cut. Resolves to { base, cut, cutAll, close }.
 */
export function tcpProxy(target, { idleMs = 0 } = {}) {
  const cut = [];
  const open = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair = [client, upstream];
    open.add(pair);
    const destroy = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of pair) {
      if (idleMs > 0) {
        socket.setTimeout(idleMs, () => {
          cut.push(Date.now());
          destroy();
        });
      }
      socket.on("error", destroy);
      socket.on("close", () => open.delete(pair));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const cutAll = () => {
    const pairs = [...open];
    for (const pair of pairs) {
      for (const socket of pair) {
        // A socket the other side already closed has no handle left to reset.
        if (socket.destroyed) continue;
        socket.resetAndDestroy();
      }
      open.delete(pair);
    }
    return pairs.length;
  };
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ base: `http://127.0.0.1:${server.address().port}`, cut, cutAll, close: () => server.close() });
    });
  });
}
