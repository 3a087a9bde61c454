// A failing agent is reported as one: a slow agent (its `init` past the 5 s wait), a silent one,
// one whose socket closes as it restarts, and one whose `init` does not parse each get `503
// agent_not_ready` with a sentence and `Retry-After` from the history, the resume, the feed and
// stop, never `200 []`, `204` or `202`; an agent that promised no `init` (no `X-Agent-Protocol`)
// and sends none keeps the documented degrade. docs/endpoint.md, the errors table.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId } from "./harness.mjs";

let worker;
before(async () => {
  worker = await startWorker({ agent: "failing" });
});
after(() => worker?.dispose());

/** Each route that reads the agent's `init` first: its request for `session`. */
const ROUTES = {
  history: (base, session) => fetch(`${base}/api/sessions/${session}/messages`),
  resume: (base, session) => fetch(`${base}/api/sessions/${session}/chat/c1/stream`),
  feed: (base, session) => fetch(`${base}/api/sessions/${session}/events`),
  stop: (base, session) => fetch(`${base}/api/sessions/${session}/chat/stop`, { method: "POST" }),
};

const FAILING = {
  slow: /in time/,
  silent: /in time/,
  closing: /closed the connection/,
  garbled: /could not be read/,
  legacyclosing: /closed the connection/,
};

describe("a failing agent: 503 agent_not_ready from every route that reads its init", { concurrency: true }, () => {
  for (const [kind, words] of Object.entries(FAILING)) {
    for (const [route, ask] of Object.entries(ROUTES)) {
      test(`${kind}: ${route}`, async () => {
        const response = await ask(worker.base, sessionId(kind));
        const text = await response.text();
        assert.equal(response.status, 503, text);
        const body = JSON.parse(text);
        assert.equal(body.error.code, "agent_not_ready", text);
        assert.match(body.error.message, words);
        assert.match(body.error.message, /Try again/);
        assert.equal(response.headers.get("retry-after"), "5");
      });
    }
  }
});

test("an agent that promised no init and sends none: the history is empty, nothing to resume or follow, the stop goes", async () => {
  const session = sessionId("legacy");
  // Each waits out the 5 s for an init: asked at once.
  const [history, resume, feed, stop] = await Promise.all(["history", "resume", "feed", "stop"].map((route) => ROUTES[route](worker.base, session)));
  assert.equal(history.status, 200);
  assert.deepEqual(await history.json(), []);
  assert.equal(resume.status, 204);
  assert.equal(feed.status, 204);
  assert.equal(stop.status, 202);
  assert.deepEqual(await stop.json(), { stopped: true });
});

test("each failure is a log line of its own, one JSON object: the route's request with its code", async () => {
  const session = sessionId("closing");
  await (await ROUTES.history(worker.base, session)).text();
  const deadline = Date.now() + 5_000;
  let line;
  while (!(line = worker.logs.find((l) => l.path?.includes(session) && l.status === 503)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(line, "the request's line");
  assert.equal(line.code ?? line.outcome, "agent_not_ready", JSON.stringify(line));
});
