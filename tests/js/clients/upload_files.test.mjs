// clients/upload-files.js in Node, against stand-ins of the worker: an upload's progress through
// XMLHttpRequest (a fake one here) or, with a `fetch`, at its start and end; an abort; the limit
// a 413 states; `uploadFiles` hears each file's progress by its place. The worker itself is in
// tests/e2e/upload_files.test.mjs, and the panel's use of it in tests/browser/widget_files.test.mjs.
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { uploadFile, uploadFiles, UploadError } from "../../../clients/upload-files.js";

const FILES_URL = "https://chat.example/api/sessions/s1/files";
const part = (name) => ({ type: "file", url: `https://chat.example/f/${name}?exp=1&sig=x`, mediaType: "text/plain", filename: name, size: 10 });

/** A stand-in XMLHttpRequest: each request is kept in `sent`, and answered by the test. */
class FakeXhr {
  static sent = [];
  constructor() {
    this.upload = {};
    this.headers = {};
    FakeXhr.sent.push(this);
  }
  open(method, url) {
    Object.assign(this, { method, url });
  }
  setRequestHeader(name, value) {
    this.headers[name] = value;
  }
  send(body) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  /** Reports `loaded` of `total` bytes gone. */
  progress(loaded, total) {
    this.upload.onprogress({ loaded, total, lengthComputable: true });
  }
  answer(status, json) {
    this.status = status;
    this.responseText = JSON.stringify(json);
    this.onload();
  }
}

afterEach(() => {
  delete globalThis.XMLHttpRequest;
  FakeXhr.sent = [];
});

describe("upload-files", () => {
  test("with onProgress, one file goes by XMLHttpRequest: its bytes as they go, its name and type, its part without size", async () => {
    globalThis.XMLHttpRequest = FakeXhr;
    const heard = [];
    const file = new File(["0123456789"], "a b.txt", { type: "text/plain" });
    const done = uploadFile(file, { filesUrl: FILES_URL, headers: async () => ({ authorization: "Bearer t" }), onProgress: (p) => heard.push(p) });
    await new Promise((resolve) => setImmediate(resolve));
    const [xhr] = FakeXhr.sent;
    assert.equal(xhr.method, "POST");
    assert.equal(xhr.url, `${FILES_URL}?filename=a+b.txt`);
    assert.deepEqual(xhr.headers, { authorization: "Bearer t", "content-type": "text/plain" });
    assert.equal(xhr.body, file);
    xhr.progress(4, 10);
    xhr.answer(201, part("a b.txt"));
    const { size: _size, ...expected } = part("a b.txt");
    assert.deepEqual(await done, expected);
    assert.deepEqual(heard, [
      { loaded: 0, total: 10 },
      { loaded: 4, total: 10 },
      { loaded: 10, total: 10 },
    ]);
  });

  test("an abort rejects with an AbortError; a refusal with the worker's code, and for a file too large its limit", async () => {
    globalThis.XMLHttpRequest = FakeXhr;
    const controller = new AbortController();
    const file = new File(["x"], "x.png", { type: "image/png" });
    const aborted = uploadFile(file, { filesUrl: FILES_URL, onProgress: () => {}, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(aborted, (error) => error.name === "AbortError");

    const big = uploadFile(file, { filesUrl: FILES_URL, onProgress: () => {} });
    await new Promise((resolve) => setImmediate(resolve));
    FakeXhr.sent[1].answer(413, { error: { code: "file_too_large", message: "The file is larger than 10485760 bytes, the most one upload may be." } });
    await assert.rejects(big, (error) => error instanceof UploadError && error.status === 413 && error.limit === 10485760 && error.file === "x.png");

    const network = uploadFile(file, { filesUrl: FILES_URL, onProgress: () => {} });
    await new Promise((resolve) => setImmediate(resolve));
    FakeXhr.sent[2].onerror();
    await assert.rejects(network, TypeError, "a network failure, as fetch's");
  });

  test("with a fetch of its own (or no XMLHttpRequest), onProgress hears the start and the end; uploadFiles names each file", async () => {
    const fetched = [];
    const fetch = async (url, init) => {
      fetched.push([String(url), init.headers["content-type"]]);
      const name = new URL(url).searchParams.get("filename");
      return new Response(JSON.stringify(part(name)), { status: 201 });
    };
    const heard = [];
    const files = [new File(["1"], "one.txt", { type: "text/plain" }), new File(["22"], "two.txt", { type: "text/plain" })];
    const parts = await uploadFiles(files, { filesUrl: () => FILES_URL, fetch, onProgress: ({ index, file, loaded, total }) => heard.push([index, file.name, loaded, total]) });
    assert.deepEqual(parts.map((p) => p.filename), ["one.txt", "two.txt"]);
    assert.deepEqual(fetched.map(([, type]) => type), ["text/plain", "text/plain"]);
    assert.deepEqual(heard, [
      [0, "one.txt", 0, 1],
      [0, "one.txt", 1, 1],
      [1, "two.txt", 0, 2],
      [1, "two.txt", 2, 2],
    ]);
  });
});
