// A session feed's client for the end-to-end tests: `GET /api/sessions/:id/events` read as it
// streams, its events parsed (`id:`, `data:`) and its comments counted.
import { sleep } from "./harness.mjs";

/**
 * Opens the feed of `session` on `base`. Returns { response, status, events, comments, lastId,
 * ended, until(predicate, what, ms), close() }: `events` fills as they arrive (each `{ id, data,
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
