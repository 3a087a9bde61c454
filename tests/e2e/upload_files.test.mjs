// clients/upload-files.js against the worker (Miniflare's R2): files become FileUIParts whose URLs
// give the bytes back; a refused file rejects with the worker's code; credentials go along.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { uploadFiles, UploadError } from "../../clients/upload-files.js";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId } from "./harness.mjs";

const AUTH_SECRET = "upload-files-test-secret-0123456789abcdef";
const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));

test("files become FileUIParts, in order, whose URLs give each file back", { timeout: 30_000 }, async () => {
  const worker = await startWorker({});
  workers.push(worker);
  const session = sessionId("client");
  const files = [
    new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3])], "a photo.png", { type: "image/png" }),
    new File(["notes"], "notes.txt", { type: "text/plain" }),
  ];
  const parts = await uploadFiles(files, { filesUrl: `${worker.base}/api/sessions/${session}/files` });
  assert.deepEqual(parts.map(({ type, mediaType, filename }) => ({ type, mediaType, filename })), [
    { type: "file", mediaType: "image/png", filename: "a photo.png" },
    { type: "file", mediaType: "text/plain", filename: "notes.txt" },
  ]);
  for (const [i, part] of parts.entries()) {
    assert.deepEqual(Object.keys(part), ["type", "url", "mediaType", "filename"]);
    const got = await fetch(part.url);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(await files[i].arrayBuffer())));
  }
  const refused = uploadFiles([new File(["<p>"], "page.html", { type: "text/html" })], { filesUrl: `${worker.base}/api/sessions/${session}/files` });
  await assert.rejects(refused, (err) => err instanceof UploadError && err.code === "file_type_not_allowed" && err.status === 415 && err.file === "page.html");
});

test("the transport's credentials go with each upload", { timeout: 30_000 }, async () => {
  const worker = await startWorker({ vars: { AUTH_MODE: "jwt", AUTH_SECRET } });
  workers.push(worker);
  const session = sessionId("client-jwt");
  const filesUrl = `${worker.base}/api/sessions/${session}/files`;
  const file = new File(["x"], "x.txt", { type: "text/plain" });
  await assert.rejects(uploadFiles([file], { filesUrl }), (err) => err.code === "unauthorized");
  const token = hs256Jwt(AUTH_SECRET, { sub: "u1", sessions: [session], exp: nowS() + 600 });
  const [part] = await uploadFiles([file], { filesUrl: () => filesUrl, headers: async () => ({ authorization: `Bearer ${token}` }) });
  assert.equal((await fetch(part.url)).status, 200);
});
