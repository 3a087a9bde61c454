// The chat route over raw HTTP: status, headers, framing, streaming, in-band and JSON errors, and
// the opening padding `STREAM_PADDING` asks for (raw, and through every AI SDK's `Chat`).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import {
  startWorker, sessionId, chatBody, postChat, readAll, sseEvents, chunksOf, demoLog,
} from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

// The UI stream headers of the AI SDK (`ui-message-stream-headers.ts`).
const STREAM_HEADERS = {
  "content-type": "text/event-stream",
  // The SDK's no-cache, and no-store: a resume (a GET) must not stay in a browser's HTTP cache.
  "cache-control": "no-cache, no-store",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
  // For iOS, whose URL loading would hold back the first ~512 bytes to sniff the type.
  "x-content-type-options": "nosniff",
};

/** Sends `head` (a POST's head, without its body) on a raw socket to `base`; the answer within
 * 5 s. */
async function rawHead(head, base = worker.base) {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  let answer = "";
  socket.on("data", (data) => (answer += data));
  const closed = new Promise((resolve) => socket.on("close", resolve));
  socket.write(head);
  const started = Date.now();
  // Answered when the head and its body came (as long as its Content-Length); the request's
  // body is never sent.
  const whole = () => {
    const [head, rest] = answer.split("\r\n\r\n");
    const length = /content-length: *(\d+)/i.exec(head ?? "");
    return rest !== undefined && length !== null && Buffer.byteLength(rest) >= Number(length[1]);
  };
  while (!whole() && Date.now() - started < 5_000) {
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  socket.destroy();
  return answer;
}

describe("the stream", { concurrency: true }, () => {
  test("200, the UI stream headers, SSE framing, one [DONE] at the end", { timeout: 30_000 }, async () => {
    const response = await postChat(worker.base, sessionId("http"), chatBody("/slow 5 20"));
    assert.equal(response.status, 200);
    for (const [name, value] of Object.entries(STREAM_HEADERS)) {
      assert.equal(response.headers.get(name), value, name);
    }
    // The worker sets `connection: keep-alive` too, but it is a hop-by-hop header: workerd's
    // HTTP server drops it (HTTP/1.1 connections are persistent anyway; HTTP/2 forbids it).
    assert.ok([null, "keep-alive"].includes(response.headers.get("connection")));

    const { text } = await readAll(response);
    const events = sseEvents(text);
    for (const event of events) {
      assert.ok(
        event === ": keep-alive" || event === "data: [DONE]" || /^data: \{.*\}$/.test(event),
        `not one SSE event: ${JSON.stringify(event)}`,
      );
    }
    assert.equal(events.at(-1), "data: [DONE]");
    assert.equal(events.filter((e) => e === "data: [DONE]").length, 1);
    // The first bytes are the stream's own: the `start` chunk, nothing before it.
    assert.match(text, /^data: \{"type":"start","messageId":"[^"]+","messageMetadata":/);
    const chunks = chunksOf(text);
    // (The agent's `agentStatus` "streaming" is no UI status phase: nothing is sent for it.)
    assert.deepEqual(chunks.map((c) => c.type), [
      "start", "start-step", "text-start",
      "text-delta", "text-delta", "text-delta", "text-delta", "text-delta",
      "text-end", "finish-step", "finish",
    ]);
    assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "w1 w2 w3 w4 w5");
  });

  test("true streaming: the first delta arrives long before the agent sends the last", { timeout: 30_000 }, async () => {
    // 20 deltas 100 ms apart: the agent sends the last ~1.9 s after the first.
    const session = sessionId("stream");
    const response = await postChat(worker.base, session, chatBody("/slow 20 100"));
    assert.equal(response.status, 200);
    const { text, reads } = await readAll(response);
    const firstDelta = reads.find((r) => r.text.includes('"type":"text-delta"'));
    assert.ok(firstDelta, "no delta arrived");

    const sent = await demoLog(worker.base, session, "sent");
    const deltas = sent.filter((e) => e.frame.type === "message.part.text-delta");
    assert.equal(deltas.length, 20);
    // Times of the agent (workerd) and of this client share the machine's clock. A body that
    // was buffered until the turn ended would arrive after the last delta was sent.
    assert.ok(
      firstDelta.at < deltas.at(-1).at - 1000,
      `first delta arrived at ${firstDelta.at}, last sent at ${deltas.at(-1).at}`,
    );
    assert.ok(reads.length >= 10, `only ${reads.length} network reads: the body was batched`);
    assert.equal(chunksOf(text).filter((c) => c.type === "text-delta").length, 20);
  });

  test("/flood: every delta arrives, in order", { timeout: 30_000 }, async () => {
    const response = await postChat(worker.base, sessionId("flood"), chatBody("/flood 2000"));
    const deltas = chunksOf((await readAll(response)).text).filter((c) => c.type === "text-delta");
    assert.equal(deltas.length, 2000);
    deltas.forEach((d, i) => assert.equal(d.delta, i === 0 ? "w1" : ` w${i + 1}`));
  });

  test("/drop: the agent's socket breaks mid-turn → in-band error, then finish and [DONE]", { timeout: 30_000 }, async () => {
    const response = await postChat(worker.base, sessionId("drop"), chatBody("/drop"));
    assert.equal(response.status, 200);
    const { text } = await readAll(response);
    const chunks = chunksOf(text);
    assert.deepEqual(chunks.map((c) => c.type), [
      "start", "start-step", "text-start", "text-delta", "text-delta", "text-delta",
      "text-end", "finish-step", "error", "finish",
    ]);
    assert.equal(chunks.find((c) => c.type === "error").errorText, "connection to the agent was lost");
    assert.ok(text.endsWith("data: [DONE]\n\n"));
  });

  test("/error: the agent's error text in-band, then finish", { timeout: 30_000 }, async () => {
    const response = await postChat(worker.base, sessionId("error"), chatBody("/error the model is overloaded"));
    const chunks = chunksOf((await readAll(response)).text);
    const error = chunks.find((c) => c.type === "error");
    assert.equal(error.errorText, "the model is overloaded");
    assert.equal(chunks.at(-1).type, "finish");
  });
});

/** Asserts a JSON error response: status, content type, `{ error: { code, message } }`. */
async function assertJsonError(response, status, code) {
  assert.equal(response.status, status);
  assert.match(response.headers.get("content-type"), /^application\/json/);
  const body = await response.json();
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, "string");
  assert.ok(body.error.message.length > 0);
  return body;
}

describe("errors before the first byte are JSON", { concurrency: true }, () => {
  const base = () => worker.base;
  const cases = [
    ["not JSON", () => postChat(base(), "s", "{oops"), 400, "invalid_json"],
    ["no messages", () => postChat(base(), "s", JSON.stringify({ id: "c" })), 400, "missing_messages"],
    ["empty messages", () => postChat(base(), "s", JSON.stringify({ messages: [] })), 400, "no_messages"],
    ["last message not from the user", () => postChat(base(), "s", JSON.stringify({
      messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }],
    })), 422, "last_message_not_from_user"],
    ["not JSON content type", () => postChat(base(), "s", chatBody("hi"), {
      headers: { "content-type": "text/plain" },
    }), 415, "unsupported_media_type"],
    ["no content type", () => fetch(`${base()}/api/sessions/s/chat`, {
      method: "POST", body: new Blob([chatBody("hi")]),
    }), 415, "unsupported_media_type"],
    ["a last message over MAX_MESSAGE_BYTES (16 MiB), read as it came", () => postChat(base(), "s", chatBody("x".repeat(16 * 1024 * 1024))), 413, "message_too_large"],
    ["session id with a slash-free bad character", () => postChat(base(), "bad%20id", chatBody("hi")), 400, "invalid_session_id"],
    ["session id over 128 characters", () => postChat(base(), "a".repeat(129), chatBody("hi")), 400, "invalid_session_id"],
    ["GET on the chat route", () => fetch(`${base()}/api/sessions/s/chat`), 405, "method_not_allowed"],
    ["unknown path", () => fetch(`${base()}/nothing/here`), 404, "not_found"],
    ["the agent answers without a WebSocket", () => postChat(base(), sessionId("nows"), chatBody("hi")), 502, "agent_bad_response"],
    ["the agent's stub throws", () => postChat(base(), sessionId("throw"), chatBody("hi")), 503, "agent_unavailable"],
  ];
  for (const [name, request, status, code] of cases) {
    test(`${name} → ${status} ${code}`, { timeout: 30_000 }, async () => {
      await assertJsonError(await request(), status, code);
    });
  }

  // A body the runtime cannot read to its end (its chunked framing broken, or cut short) is not
  // the client's JSON: `400 body_unreadable`, which the client still gets on its connection.
  for (const [name, chunked] of [
    ["a chunk size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"],
    ["a chunked body cut short", '5\r\n{"mes\r\n'],
  ]) {
    test(`${name} → 400 body_unreadable`, { timeout: 30_000 }, async () => {
      const url = new URL(worker.base);
      const socket = net.connect(Number(url.port), url.hostname);
      let answer = "";
      socket.on("data", (data) => (answer += data));
      const closed = new Promise((resolve) => socket.on("close", resolve));
      socket.write(
        `POST /api/sessions/${sessionId("unreadable")}/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: chunked\r\n\r\n${chunked}`,
      );
      // A body cut short: the client stops sending (its half of the connection closes).
      if (!chunked.startsWith("zz")) socket.end();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      socket.destroy();
      const [head, body] = answer.split("\r\n\r\n");
      assert.match(head, /^HTTP\/1\.1 400 /);
      assert.equal(JSON.parse(body).error.code, "body_unreadable");
    });
  }

  test("a 128-character session id is accepted", { timeout: 30_000 }, async () => {
    const id = `ok.${"a_b:c-".repeat(20)}`.padEnd(128, "z");
    const response = await postChat(worker.base, id, chatBody("/slow 1 1"));
    assert.equal(response.status, 200);
    await readAll(response);
  });
});

// What docs/endpoint.md promises to refuse, refused before the agent is touched, each with a
// message that names the field and says why (issue 66).
describe("inputs the docs refuse", { concurrency: true }, () => {
  const base = () => worker.base;
  /** A body of one user message, `hi`, and `extra`; with a file part of `file`'s fields, if any. */
  const body = (extra = {}, file = null) => {
    const parsed = JSON.parse(chatBody("hi", extra));
    if (file) parsed.messages[0].parts.push({ type: "file", mediaType: "image/png", url: "https://files.example/a.png", ...file });
    return JSON.stringify(parsed);
  };
  const nested = (depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const deepParts = JSON.stringify({
    trigger: "submit-message",
    messages: [{ id: "u-deep", role: "user", parts: [{ type: "text", text: "hi" }, { type: "data-x", data: "@" }] }],
  }).replace('"@"', `${"[".repeat(200)}${"]".repeat(200)}`);
  const cases = [
    ["a trigger the AI SDK never sends", body({ trigger: "foo" }), "invalid_field", "`trigger` must be"],
    ["an empty trigger", body({ trigger: "" }), "invalid_field", "`trigger` must be"],
    ["an empty messageId", body({ messageId: "" }), "invalid_field", "`messageId` is empty"],
    ["a messageId of 10,000 characters", body({ messageId: "x".repeat(10_000) }), "invalid_field", "`messageId` is 10000 bytes of UTF-8, over the limit of 256"],
    ["a messageId that is not Unicode", body({ messageId: "\ud800" }), "invalid_field", "`messageId` is not valid Unicode"],
    ["a branch id that is not Unicode", JSON.stringify({
      trigger: "submit-message",
      messages: [
        { id: "\ud800", role: "user", parts: [{ type: "text", text: "a" }] },
        { id: "u-2", role: "user", parts: [{ type: "text", text: "b" }] },
      ],
    }), "invalid_message", "Message 0 of `messages` (counted from 0) has an `id` that is not valid Unicode"],
    ["a context nested 127 levels", body({ context: JSON.parse(nested(127)) }), "invalid_field", "`context` nests deeper than the limit of 64 levels"],
    ["parts nested 200 levels", deepParts, "invalid_message", "its `parts` nest deeper than the limit of 64 levels"],
    ["a file URL of https: alone", body({}, { url: "https:" }), "invalid_attachment", "its `url` is an https: URL without `//` and a host"],
    ["a file URL https:javascript:", body({}, { url: "https:javascript:alert(1)" }), "invalid_attachment", "its `url` is an https: URL without `//` and a host"],
    ["a file URL of the cloud metadata address", body({}, { url: "https://169.254.169.254/latest/meta-data/" }), "invalid_attachment", "has a host that is an IP address that is not public"],
    ["a file URL of the worker's own loopback", body({}, { url: "https://127.0.0.1:8787/api" }), "invalid_attachment", "has a host that is an IP address that is not public"],
    ["a file URL of localhost", body({}, { url: "https://localhost/a.png" }), "invalid_attachment", "has a host that is `localhost`"],
    ["a file URL with a password", body({}, { url: "https://u:p@files.example/a.png" }), "invalid_attachment", "has a user name or password"],
    ["a data: URL of HTML, not base64", body({}, { url: "DATA:text/html,<script>alert(1)</script>" }), "invalid_attachment", "is a data: URL without a media type and `;base64`"],
    ["a media type over 255 bytes", body({}, { mediaType: `image/${"p".repeat(300)}` }), "invalid_attachment", "its `mediaType` is 306 bytes, over the limit of 255"],
    ["a filename over 255 bytes", body({}, { filename: "n".repeat(10_000) }), "invalid_attachment", "its `filename` is 10000 bytes of UTF-8, over the limit of 255"],
  ];
  for (const [name, text, code, says] of cases) {
    test(`${name} → 400 ${code}`, { timeout: 30_000 }, async () => {
      const response = await postChat(base(), sessionId("inputs"), text);
      // Today's answer to some was a 200 whose turn never came: not read, so no wait.
      if (response.status === 200) await response.body.cancel();
      const error = (await assertJsonError(response, 400, code)).error;
      assert.ok(error.message.includes(says), error.message);
    });
  }

  test("ids are counted in decoded bytes: fifty é written as \\u00e9 (100 bytes) pass", { timeout: 30_000 }, async () => {
    const id = "\\u00e9".repeat(50);
    const text = JSON.stringify({
      trigger: "submit-message",
      messages: [{ id: "@", role: "user", parts: [{ type: "text", text: "/slow 1 1" }] }],
    }).replace('"@"', `"${id}"`);
    const response = await postChat(base(), sessionId("decoded"), text);
    assert.equal(response.status, 200, await response.clone().text());
    await readAll(response);
  });

  test("the AI SDK's file parts, https: and base64 data:, still pass", { timeout: 30_000 }, async () => {
    const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const parsed = JSON.parse(chatBody("/slow 1 1"));
    parsed.messages[0].parts.push(
      { type: "file", mediaType: "image/png", url: png, filename: "dot.png" },
      { type: "file", mediaType: "image/png", url: "https://files.example/a.png" },
    );
    const response = await postChat(base(), sessionId("files"), JSON.stringify(parsed));
    assert.equal(response.status, 200);
    await readAll(response);
  });

  for (const length of ["104857601", "200000000", "99999999999999999999999"]) {
    test(`a Content-Length of ${length} is a 413 before any byte of the body`, { timeout: 30_000 }, async () => {
      const answer = await rawHead(
        `POST /api/sessions/${sessionId("declared")}/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${length}\r\n\r\n`,
      );
      const [head, json] = answer.split("\r\n\r\n");
      assert.match(head ?? "", /^HTTP\/1\.1 413 /, answer || "no answer within 5 s");
      assert.equal(JSON.parse(json).error.code, "body_too_large");
    });
  }

  // The runtime answers such a request itself, before the worker (workerd: a 500 that closes the
  // connection; the edge: a 400); the worker would answer a 400 body_unreadable (core's
  // request::length).
  test("a Content-Length that is no number is refused before any byte of the body", { timeout: 30_000 }, async () => {
    const answer = await rawHead(
      `POST /api/sessions/${sessionId("declared")}/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        "Content-Length: 1e12\r\n\r\n",
    );
    assert.match(answer, /^HTTP\/1\.1 [45]\d\d /, answer || "no answer within 5 s");
  });
});

describe("a body over a small MAX_BODY_BYTES, still being sent when the answer is decided", () => {
  const MAX = 65_536;
  let small;
  before(async () => {
    small = await startWorker({ vars: { MAX_BODY_BYTES: String(MAX) } });
  });
  after(() => small?.dispose());

  // Answered at its head and the rest dropped, a third of such uploads saw a reset connection
  // instead of the 413 (73 of 200, 6 at a time): the worker reads what is left before it answers.
  test("40 bodies of 8 MiB, 6 at a time: every client reads its 413 body_too_large", { timeout: 120_000 }, async () => {
    const body = chatBody("x".repeat(8 * 1024 * 1024));
    const outcomes = [];
    let next = 0;
    const lane = async () => {
      while (next < 40) {
        const i = next++;
        try {
          const response = await postChat(small.base, sessionId(`big-${i}`), body);
          outcomes.push(`${response.status} ${(await response.json()).error?.code}`);
        } catch (err) {
          outcomes.push(String(err?.cause?.code ?? err?.message ?? err));
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, lane));
    const counts = Object.fromEntries([...new Set(outcomes)].map((o) => [o, outcomes.filter((x) => x === o).length]));
    assert.deepEqual(counts, { "413 body_too_large": 40 });
  });

  test("a body declared 8 MiB long of which nothing comes is answered all the same (413)", { timeout: 30_000 }, async () => {
    const answer = await rawHead(
      `POST /api/sessions/${sessionId("silent")}/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${8 * 1024 * 1024}\r\n\r\n`,
      small.base,
    );
    const [head, json] = answer.split("\r\n\r\n");
    assert.match(head ?? "", /^HTTP\/1\.1 413 /, answer || "no answer within 5 s");
    assert.equal(JSON.parse(json).error.code, "body_too_large");
  });
});

describe("with DEMO_AGENT off", () => {
  let off;
  before(async () => {
    off = await startWorker({ vars: { DEMO_AGENT: "off" } });
  });
  after(() => off?.dispose());

  test("the demo routes are 404 and the demo agent accepts no socket (502)", { timeout: 30_000 }, async () => {
    await assertJsonError(await fetch(`${off.base}/demo/sessions/s/received`), 404, "not_found");
    await assertJsonError(await postChat(off.base, "s", chatBody("hi")), 502, "agent_bad_response");
  });
});

describe("with STREAM_PADDING (for phones whose loader holds the first bytes back)", () => {
  const PADDING = 1024;
  let padded;
  before(async () => {
    padded = await startWorker({ vars: { STREAM_PADDING: String(PADDING), ON_DISCONNECT: "detach" } });
  });
  after(() => padded?.dispose());

  /** One SSE comment of exactly PADDING bytes, then the stream's own `start`. */
  const opensPadded = (text, what) => {
    const comment = `:${" ".repeat(PADDING - 3)}\n\n`;
    assert.equal(text.slice(0, PADDING), comment, `${what}: the padding first, exactly`);
    assert.match(text.slice(PADDING), /^data: \{"type":"start",/, `${what}: then the stream's start`);
  };

  test("the chat and the resume streams open with the padding, then their own start", { timeout: 30_000 }, async () => {
    const session = sessionId("padded");
    const response = await postChat(padded.base, session, chatBody("/slow 30 100", { onDisconnect: "detach" }));
    assert.equal(response.status, 200);
    const reader = response.body.getReader();
    let first = "";
    while (first.length < PADDING + 20) {
      const { value, done } = await reader.read();
      if (done) break;
      first += new TextDecoder().decode(value);
    }
    await reader.cancel();
    opensPadded(first, "the chat");

    const resume = await fetch(`${padded.base}/api/sessions/${session}/chat/chat-1/stream`);
    assert.equal(resume.status, 200);
    const { text } = await readAll(resume);
    opensPadded(text, "the resume");
    assert.equal(chunksOf(text).filter((c) => c.type === "text-delta").length, 30, "the whole turn after it");
  });

  for (const pkg of ["ai-v5-0-0", "ai-v5", "ai", "ai-v7"]) {
    test(`${pkg}: a Chat reads a padded stream as any other`, { timeout: 30_000 }, async () => {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const errors = [];
      const chat = new Chat({
        transport: new DefaultChatTransport({ api: `${padded.base}/api/sessions/${sessionId("padded-sdk")}/chat` }),
        onError: (e) => errors.push(e),
      });
      await chat.sendMessage({ text: "/slow 3 10" });
      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      const reply = chat.messages.at(-1);
      assert.equal(reply.parts.filter((p) => p.type === "text").map((p) => p.text).join(""), "w1 w2 w3");
    });
  }
});
