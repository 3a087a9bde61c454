// The Expo example's photos (examples/expo/photos.ts), run in Node with the image picker and
// expo/fetch faked (no phone runs in CI: docs/mobile.md, "What the tests check"): images only, as
// JPEGs where the phone keeps HEIC, several from the library and one from the camera once it is
// allowed; each picked file read from its URI and uploaded once, in order, by expo/fetch, to the
// session's files route with its name, its type and the chat's headers; its FileUIPart back; a
// cancel uploads nothing; a refused camera or file rejects in words.
import { test, beforeEach, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { root } from "../docs/docs.mjs";

/** What the fakes do and saw, reset before each test. */
let fake;
globalThis.__expoPhotos = {
  library: async (options) => (fake.asked.push(["library", options]), fake.picked),
  camera: async (options) => (fake.asked.push(["camera", options]), fake.picked),
  permission: async () => (fake.asked.push(["permission"]), { granted: fake.cameraAllowed }),
  fetch: async (input, init) => {
    const url = String(input);
    const body = Buffer.from(await init.body.arrayBuffer()).toString();
    fake.uploads.push({ url, method: init.method, headers: init.headers, body, type: init.body.type });
    const name = new URL(url).searchParams.get("filename");
    if (fake.refuse) return Response.json({ error: { code: "file_type_not_allowed", message: "This type of file cannot be uploaded here (its Content-Type)." } }, { status: 415 });
    return Response.json({ type: "file", url: `${url.split("?")[0]}/f${fake.uploads.length}?exp=1&sig=s`, mediaType: init.body.type, filename: name, size: body.length }, { status: 201 });
  },
};

const FAKES = {
  "expo-image-picker": `
    const fakes = globalThis.__expoPhotos;
    export const UIImagePickerPreferredAssetRepresentationMode = { Automatic: "automatic", Compatible: "compatible", Current: "current" };
    export const launchImageLibraryAsync = (options) => fakes.library(options);
    export const launchCameraAsync = (options) => fakes.camera(options);
    export const requestCameraPermissionsAsync = () => fakes.permission();`,
  "expo/fetch": "export const fetch = (input, init) => globalThis.__expoPhotos.fetch(input, init);",
};
const [bundle] = (
  await build({
    entryPoints: [path.join(root, "examples/expo/photos.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "warning",
    plugins: [
      {
        name: "fakes",
        setup(b) {
          b.onResolve({ filter: /^(expo-image-picker|expo\/fetch)$/ }, (args) => ({ path: args.path, namespace: "fake" }));
          b.onLoad({ filter: /.*/, namespace: "fake" }, (args) => ({ contents: FAKES[args.path], loader: "js" }));
        },
      },
    ],
  })
).outputFiles;
// Imported from a file, so that a failure's stack names its lines.
const dir = mkdtempSync(path.join(os.tmpdir(), "expo-photos-"));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, "photos.mjs"), bundle.text);
const { pickPhotos } = await import(pathToFileURL(path.join(dir, "photos.mjs")).href);

/** React Native's XMLHttpRequest as photos.ts uses it: a GET of a picked file's URI, as a Blob. */
globalThis.XMLHttpRequest = class {
  open(method, uri) {
    this.method = method;
    this.uri = uri;
  }
  send() {
    setTimeout(() => {
      const file = fake.files[this.uri];
      if (this.method !== "GET" || this.responseType !== "blob" || !file) return this.onerror();
      this.response = file;
      this.onload();
    });
  }
};

const SESSION_URL = "http://10.0.2.2:8787/api/sessions/expo-demo";
const headers = async () => ({ Authorization: "Bearer t1" });

beforeEach(() => {
  fake = {
    asked: [],
    uploads: [],
    cameraAllowed: true,
    refuse: false,
    files: {
      "file:///cache/ImagePicker/a.jpg": new Blob(["jpeg bytes"], { type: "image/jpeg" }),
      "file:///cache/ImagePicker/b.png": new Blob(["png bytes"], { type: "image/png" }),
    },
    picked: {
      canceled: false,
      assets: [
        { uri: "file:///cache/ImagePicker/a.jpg", fileName: "IMG_0001.jpg", mimeType: "image/jpeg", width: 4, height: 3 },
        { uri: "file:///cache/ImagePicker/b.png", fileName: "Screenshot.png", mimeType: "image/png", width: 4, height: 3 },
      ],
    },
  };
});

/** What the picker is asked for, from both sources: images, as JPEGs where the phone keeps HEIC. */
const ASKED = { mediaTypes: ["images"], quality: 0.8, preferredAssetRepresentationMode: "compatible" };

test("from the library: several photos, each read from its URI and uploaded once, in order, with its name, type and the chat's headers", async () => {
  const parts = await pickPhotos("library", SESSION_URL, headers);
  assert.deepEqual(fake.asked, [["library", { ...ASKED, allowsMultipleSelection: true }]]);
  assert.deepEqual(fake.uploads, [
    {
      url: `${SESSION_URL}/files?filename=IMG_0001.jpg`,
      method: "POST",
      headers: { Authorization: "Bearer t1", "content-type": "image/jpeg" },
      body: "jpeg bytes",
      type: "image/jpeg",
    },
    {
      url: `${SESSION_URL}/files?filename=Screenshot.png`,
      method: "POST",
      headers: { Authorization: "Bearer t1", "content-type": "image/png" },
      body: "png bytes",
      type: "image/png",
    },
  ]);
  // The parts sendMessage takes: no size (the AI SDK's shape).
  assert.deepEqual(parts, [
    { type: "file", url: `${SESSION_URL}/files/f1?exp=1&sig=s`, mediaType: "image/jpeg", filename: "IMG_0001.jpg" },
    { type: "file", url: `${SESSION_URL}/files/f2?exp=1&sig=s`, mediaType: "image/png", filename: "Screenshot.png" },
  ]);
});

test("a cancel uploads nothing", async () => {
  fake.picked = { canceled: true, assets: null };
  assert.deepEqual(await pickPhotos("library", SESSION_URL, headers), []);
  assert.deepEqual(fake.uploads, []);
});

test("from the camera: once it is allowed, one photo; refused, the camera is not opened and the user is told", async () => {
  fake.picked = { canceled: false, assets: [{ uri: "file:///cache/ImagePicker/a.jpg", mimeType: "image/jpeg" }] };
  const [part] = await pickPhotos("camera", SESSION_URL, headers);
  assert.deepEqual(fake.asked, [["permission"], ["camera", ASKED]]);
  assert.equal(part.filename, "photo.jpg", "a name where the picker gives none");
  assert.equal(fake.uploads[0].url, `${SESSION_URL}/files?filename=photo.jpg`);

  fake.asked = [];
  fake.cameraAllowed = false;
  await assert.rejects(pickPhotos("camera", SESSION_URL, headers), /Camera access was refused/);
  assert.deepEqual(fake.asked, [["permission"]]);
});

test("a file the worker refuses rejects with its code and words", async () => {
  fake.refuse = true;
  await assert.rejects(pickPhotos("library", SESSION_URL, headers), {
    name: "UploadError",
    code: "file_type_not_allowed",
    status: 415,
    message: "IMG_0001.jpg: This type of file cannot be uploaded here (its Content-Type).",
  });
  assert.equal(fake.uploads.length, 1, "the files after it are not sent");
});
