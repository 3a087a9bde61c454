// A session feed's client for the end-to-end tests: `GET /api/sessions/:id/events` read as it
// streams, its events parsed (`id:`, `data:`) and its comments counted.
import net from "node:net";
import { sleep } from "./harness.mjs";

/**
 * Opens the feed of `session` on `base`. Returns { response, status, events, comments, bytes,
 * lastId, ended, until(predicate, what, ms), close() }: `events` fills as they arrive (each `{ id, data,
 * at }`, `data` parsed), `until` resolves with the first event from `from` on (default: any)
 * that `predicate` holds of.
 */
export async function openFeed(base, session, { headers = {}, lastEventId } = {}) {
  const controller = new AbortController();
  const extra = lastEventId === undefined ? {} : { "last-event-id": lastEventId };
  const response = await fetch(`${base}/api/sessions/${session}/events`, { headers: { ...headers, ...extra }, signal: controller.signal });
  const feed = {
    response,
    status: response.status,
    events: [],
    comments: 0,
    bytes: 0,
    lastId: lastEventId,
    ended: false,
    close: () => controller.abort(),
    async until(predicate, what, { ms = 10_000, from = 0 } = {}) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = feed.events.slice(from).find((e) => predicate(e.data));
        if (found) return found;
        if (feed.ended || Date.now() > deadline) throw new Error(`feed: no ${what} (${feed.ended ? "ended" : "timed out"}); got ${JSON.stringify(feed.events.map((e) => e.data.type))}`);
        await sleep(10);
      }
    },
  };
  if (response.status !== 200) return feed;
  feed.done = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const bytes of response.body) {
        feed.bytes += bytes.length;
        buffer += decoder.decode(bytes, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id;
          let data;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) feed.comments += 1;
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data = JSON.parse(line.slice(6));
            else throw new Error(`feed: a line of no known field: ${JSON.stringify(line)}`);
          }
          if (data !== undefined) {
            if (!/^[0-9a-f]{16}$/.test(id ?? "")) throw new Error(`feed: an event without its id: ${block}`);
            feed.lastId = id;
            feed.events.push({ id, data, at: Date.now() });
          }
        }
      }
    } catch (err) {
      if (err.name !== "AbortError") feed.error = err;
    } finally {
      feed.ended = true;
    }
  })();
  return feed;
}

/**
 * Opens the feed of `session` on `base` over a bare TCP socket, as a browser's connection is: the
 * request written by hand, the answer's head and first bytes read. Returns { status, socket,
 * text() }: `text()` is everything read so far. The test then stops reading (`socket.pause()`),
 * sends FIN (`socket.end()`) or resets the connection (`socket.resetAndDestroy()`): what a tab
 * that closes, a phone that loses its network or a reload does.
 */
export function openSocketFeed(base, session, { headers = {} } = {}) {
  const { hostname, port } = new URL(base);
  const lines = [`GET /api/sessions/${session}/events HTTP/1.1`, `host: ${hostname}:${port}`, "accept: text/event-stream"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = "";
    const feed = { socket, status: 0, text: () => received };
    socket.setEncoding("utf8");
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      received += chunk;
      const head = received.indexOf("\r\n\r\n");
      if (feed.status === 0 && head >= 0) {
        feed.status = Number(received.slice(9, 12));
        // A feed: once its opening comment came. A refusal: at once.
        if (feed.status !== 200 || received.indexOf(":", head) >= 0) resolve(feed);
      } else if (feed.status === 200 && received.indexOf(":", head) >= 0) resolve(feed);
    });
    socket.on("close", () => resolve(feed));
    socket.on("connect", () => socket.write(`${lines.join("\r\n")}\r\n\r\n`));
    socket.setTimeout(20_000, () => reject(new Error("feed: no answer in 20 s")));
  }).then((feed) => {
    feed.socket.setTimeout(0);
    return feed;
  });
}
