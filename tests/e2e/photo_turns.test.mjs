// Photos from a stock `useChat` (docs/files.md, "Photos from a stock useChat"): a `Chat` of ai 7,
// 6, 5 and 5.0.0 sends each photo as a data: URL, and again with every later POST. The worker
// reads the body as a stream, keeps the last message's photo in R2 once per content, and sends
// the agent its URL: every turn answers 200 however many photos came before, the history holds
// URLs that give each photo back byte for byte, a reloaded Chat's next POST is small, and the
// bucket holds one object per photo, and the demo agent (`/files`) reads each photo from the
// bucket and reports its SHA-256. A message with a bad file is refused with its code, and
// nothing of it is stored.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf } from "./harness.mjs";
import { stockChat, textOf } from "./chat.mjs";

const MiB = 1024 * 1024;

/** A PNG of `bytes` bytes (its signature, then noise: what the worker checks is the signature). */
function png(bytes) {
  const out = randomBytes(bytes);
  Buffer.from("89504e470d0a1a0a", "hex").copy(out);
  return out;
}

const dataUrl = (bytes, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`;
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** A fetch that records each request body's length. */
function recording() {
  const sizes = [];
  const fetchRecording = (url, init) => {
    sizes.push(typeof init?.body === "string" ? Buffer.byteLength(init.body) : 0);
    return fetch(url, init);
  };
  return { sizes, fetch: fetchRecording };
}

/** The objects the bucket holds under `session`'s files. */
async function objects(worker, session) {
  const bucket = await worker.r2("FILES");
  return (await bucket.list({ prefix: `sessions/${session}/files/` })).objects;
}

describe("photos turn after turn from a stock Chat", () => {
  let worker;
  before(async () => {
    worker = await startWorker({});
  });
  after(() => worker?.dispose());

  // ai 7 sends ten 3 MB photos (the last POST about 40 MB); the older versions three 1 MB ones.
  const RUNS = [
    ["ai-v7", 10, 3 * MiB],
    ["ai", 3, MiB],
    ["ai-v5", 3, MiB],
    ["ai-v5-0-0", 3, MiB],
  ];
  for (const [pkg, turns, size] of RUNS) {
    test(`${pkg}: ${turns} turns with a ${size / MiB} MB photo each all answer; the history holds URLs that give each back; the bucket holds each once`, { timeout: 120_000 }, async () => {
      const session = sessionId("photos");
      const api = `${worker.base}/api/sessions/${session}/chat`;
      const posts = recording();
      const { chat, errors } = await stockChat(pkg, api, { fetch: posts.fetch });
      const photos = [];
      for (let turn = 0; turn < turns; turn++) {
        const photo = png(size);
        photos.push(photo);
        await chat.sendMessage({ text: `/files photo ${turn}`, files: [{ type: "file", mediaType: "image/png", filename: `p${turn}.png`, url: dataUrl(photo) }] });
        // What the worker said of the session's last requests, and its error output, when a turn failed.
        const said = () => JSON.stringify({ lines: worker.logs.filter((l) => l.session === session).slice(-2), stderr: worker.stderr.slice(-5) });
        assert.deepEqual(errors, [], `turn ${turn}: ${errors.length ? said() : ""}`);
        assert.equal(chat.status, "ready");
        // The demo agent read the file from the bucket by its URL: its bytes arrived whole.
        // And the prompt gave the file's size (protocol 6's `size`).
        assert.equal(textOf(chat.messages.at(-1)), `p${turn}.png image/png ${size} bytes sha256 ${sha(photo).slice(0, 16)}, the prompt said ${size} bytes`);
      }
      assert.ok(posts.sizes.at(-1) > turns * size, `the last POST carried every photo again (${posts.sizes.at(-1)} bytes)`);

      const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
      const files = history.filter((m) => m.role === "user").flatMap((m) => m.parts.filter((p) => p.type === "file"));
      assert.equal(files.length, turns, "every photo is in the history");
      for (const [i, file] of files.entries()) {
        assert.ok(!file.url.startsWith("data:"), "a URL, not the bytes");
        assert.equal(file.filename, `p${i}.png`);
        const served = Buffer.from(await (await fetch(file.url)).arrayBuffer());
        assert.equal(sha(served), sha(photos[i]), `photo ${i} comes back byte for byte`);
      }
      assert.equal((await objects(worker, session)).length, turns, "one object per photo, however often it was sent");

      // A Chat opened on the history (a reload): its next POST is small.
      const reloaded = recording();
      const again = await stockChat(pkg, api, { messages: history, fetch: reloaded.fetch });
      await again.chat.sendMessage({ text: "/slow 1 1 and now?" });
      assert.deepEqual(again.errors, []);
      assert.ok(reloaded.sizes[0] < MiB, `a reloaded Chat's POST is ${reloaded.sizes[0]} bytes`);
    });
  }
});

describe("a message's files: refused with their codes, nothing stored", () => {
  let worker;
  before(async () => {
    worker = await startWorker({ vars: { MAX_FILE_BYTES: String(MiB), MAX_MESSAGE_BYTES: String(4 * MiB) } });
  });
  after(() => worker?.dispose());

  /** A chat body whose message carries `file` (a file part's fields). */
  const withFile = (file, text = "/slow 1 1 look") => {
    const body = JSON.parse(chatBody(text));
    body.messages[0].parts.push({ type: "file", ...file });
    return JSON.stringify(body);
  };

  const CASES = [
    ["a data: URL that is not base64", { mediaType: "image/png", url: "data:image/png;base64,iVBOR=w" }, 400, "invalid_attachment"],
    ["bytes that are not the type they say", { mediaType: "image/png", url: dataUrl(Buffer.from("GIF89a..."), "image/png") }, 400, "file_type_mismatch"],
    ["a data: URL of another type than its mediaType", { mediaType: "image/png", url: dataUrl(png(100), "image/gif") }, 400, "file_type_mismatch"],
    ["a file of 0 bytes", { mediaType: "image/png", url: "data:image/png;base64," }, 400, "empty_file"],
    ["a name with a path", { mediaType: "image/png", filename: "../../etc/passwd", url: dataUrl(png(100)) }, 400, "invalid_filename"],
    ["a name with a control character", { mediaType: "image/png", filename: "a\u0007b.png", url: dataUrl(png(100)) }, 400, "invalid_filename"],
    ["a type not on FILE_TYPES", { mediaType: "image/svg+xml", url: dataUrl(Buffer.from("<svg/>"), "image/svg+xml") }, 415, "file_type_not_allowed"],
    ["a file over MAX_FILE_BYTES", { mediaType: "image/png", url: dataUrl(png(MiB + 1)) }, 413, "file_too_large"],
    ["a message over MAX_MESSAGE_BYTES", { mediaType: "image/png", url: dataUrl(png(3 * MiB + 512 * 1024)) }, 413, "message_too_large"],
    ["this worker's URL of another session's file", { mediaType: "image/png", url: "SELF/api/sessions/other/files/0123456789abcdef0123456789abcdef" }, 400, "invalid_attachment"],
    ["this worker's URL of a file the session does not hold", { mediaType: "image/png", url: "SELF/api/sessions/SESSION/files/0123456789abcdef0123456789abcdef" }, 400, "invalid_attachment"],
    ["this worker's URL of no file", { mediaType: "image/png", url: "SELF/api/sessions/SESSION/files/x" }, 400, "invalid_attachment"],
  ];
  for (const [name, file, status, code] of CASES) {
    test(`${name} → ${status} ${code}, nothing stored`, async () => {
      const session = sessionId("bad-file");
      const url = file.url.replace("SELF", worker.base).replace("SESSION", session);
      const response = await postChat(worker.base, session, withFile({ ...file, url }));
      const error = (await response.json()).error;
      assert.deepEqual([response.status, error.code], [status, code], error.message);
      assert.deepEqual(await objects(worker, session), []);
      const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
      assert.deepEqual(history, [], "nothing reached the agent");
    });
  }

  test("an uploaded file's URL goes to the agent as it is; the same photo as a data: URL is one more object, once", async () => {
    const session = sessionId("uploaded");
    const photo = png(2000);
    const uploaded = await (await fetch(`${worker.base}/api/sessions/${session}/files?filename=up.png`, { method: "POST", headers: { "content-type": "image/png" }, body: photo })).json();
    const first = await postChat(worker.base, session, withFile({ mediaType: "image/png", url: uploaded.url, filename: "up.png" }, "/files"));
    assert.equal(first.status, 200, await first.clone().text());
    // The agent read it through its binding, and the prompt gave its size from the bucket.
    const said = chunksOf((await readAll(first)).text).filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
    assert.match(said, new RegExp(`up\\.png image/png ${photo.length} bytes sha256 ${sha(photo).slice(0, 16)}, the prompt said ${photo.length} bytes`));
    for (let i = 0; i < 2; i++) {
      const inline = await postChat(worker.base, session, withFile({ mediaType: "image/png", url: dataUrl(photo) }));
      assert.equal(inline.status, 200);
      await readAll(inline);
    }
    assert.equal((await objects(worker, session)).length, 2, "the upload, and the data: URL's photo once");
    const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
    const urls = history.flatMap((m) => m.parts.filter((p) => p.type === "file").map((p) => p.url));
    assert.equal(urls.length, 3);
    // The history signs each URL again (its `exp` and `sig`): the same file's path.
    const path = (url) => url.split("?")[0];
    assert.equal(path(urls[0]), path(uploaded.url));
    for (const url of urls) assert.equal(sha(Buffer.from(await (await fetch(url)).arrayBuffer())), sha(photo));
  });
});

describe("the history signs its file URLs again", () => {
  let worker;
  before(async () => {
    worker = await startWorker({ vars: { FILE_URL_TTL_S: "2" } });
  });
  after(() => worker?.dispose());

  test("a URL the agent stored has expired; the history's URL of the same file opens it", { timeout: 30_000 }, async () => {
    const session = sessionId("resign");
    const photo = png(5000);
    const body = JSON.parse(chatBody("/slow 1 1 look"));
    body.messages[0].parts.push({ type: "file", mediaType: "image/png", url: dataUrl(photo) });
    await readAll(await postChat(worker.base, session, JSON.stringify(body)));
    const page = async () => (await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json()).flatMap((m) => m.parts.filter((p) => p.type === "file"));
    const [stored] = await page();
    // Past the stored signature's life (FILE_URL_TTL_S, 2 s).
    const exp = Number(new URL(stored.url).searchParams.get("exp"));
    while (Date.now() / 1000 <= exp) await new Promise((resolve) => setTimeout(resolve, 200));
    const expired = await fetch(stored.url);
    assert.equal(expired.status, 403);
    assert.equal((await expired.json()).error.code, "url_expired");
    const [fresh] = await page();
    assert.notEqual(fresh.url, stored.url);
    assert.ok(Number(new URL(fresh.url).searchParams.get("exp")) > exp);
    const served = await fetch(fresh.url);
    assert.equal(served.status, 200);
    assert.equal(sha(Buffer.from(await served.arrayBuffer())), sha(photo));
  });
});

describe("the TypeScript reference agent keeps the photo's URL (the SessionAgent library takes the adapter's file URLs, on 127.0.0.1 too)", () => {
  let worker;
  before(async () => {
    worker = await startWorker({ agent: "typescript" });
  });
  after(() => worker?.dispose());

  test("a stock Chat's photo turn: the history's file part is the worker's URL and gives the photo back", { timeout: 60_000 }, async () => {
    const session = sessionId("ts-photo");
    const { chat, errors } = await stockChat("ai", `${worker.base}/api/sessions/${session}/chat`);
    const photo = png(200_000);
    await chat.sendMessage({ text: "what is this?", files: [{ type: "file", mediaType: "image/png", filename: "p.png", url: dataUrl(photo) }] });
    assert.deepEqual(errors, []);
    const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
    const files = history.flatMap((m) => m.parts.filter((p) => p.type === "file"));
    assert.equal(files.length, 1, "the library kept the file part");
    assert.ok(files[0].url.startsWith(`${worker.base}/api/sessions/${session}/files/`));
    assert.equal(sha(Buffer.from(await (await fetch(files[0].url)).arrayBuffer())), sha(photo));
  });
});

describe("a deleted session's files go with it", () => {
  let worker;
  before(async () => {
    worker = await startWorker({});
  });
  after(() => worker?.dispose());

  test("DELETE /api/sessions/:id deletes the session's files, and only its own", { timeout: 30_000 }, async () => {
    const me = { "content-type": "application/json", "x-conversations-key": `photos-${process.pid}-${Date.now()}` };
    const [gone, kept] = [sessionId("deleted"), sessionId("kept")];
    for (const session of [gone, kept]) {
      const body = JSON.parse(chatBody("/slow 1 1 look"));
      body.messages[0].parts.push({ type: "file", mediaType: "image/png", url: dataUrl(png(3000)) });
      await readAll(await postChat(worker.base, session, JSON.stringify(body), { headers: me }));
      await fetch(`${worker.base}/api/sessions/${session}/files`, { method: "POST", headers: { "content-type": "image/png" }, body: png(2000) });
      assert.equal((await objects(worker, session)).length, 2);
    }
    // Listed once its turn's write lands (after the response: waitUntil).
    const deadline = Date.now() + 10_000;
    let answer;
    for (;;) {
      answer = await fetch(`${worker.base}/api/sessions/${gone}`, { method: "DELETE", headers: me });
      if (answer.status !== 404 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(answer.status, 204);
    assert.deepEqual(await objects(worker, gone), [], "the upload and the message's photo are gone");
    assert.equal((await objects(worker, kept)).length, 2, "another session's are not");
    // And the marker of the upload no message named (docs/files.md, the sweep's).
    const markers = async (session) => (await (await worker.r2("FILES")).list({ prefix: `pending/${session}/` })).objects.length;
    assert.deepEqual([await markers(gone), await markers(kept)], [0, 1]);
  });
});
