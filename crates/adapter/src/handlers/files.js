// The files routes' runtime steps (crates/adapter/src/handlers/files.rs), each one call from
// WebAssembly: an upload streamed into the FILES bucket (R2) and its URL's HMAC, a file's
// signature checked and its head, a file's answer. The HMAC is WebCrypto's (native and
// constant-time, as a JWT's check: no hash code in the wasm). What may be uploaded or served, and
// how, and what a signature signs, is decided in crates/core/src/files/; this file only moves
// bytes.

const HMAC = { name: "HMAC", hash: "SHA-256" };

/** `bytes` in lowercase hex. */
const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** A failure's text, which WebAssembly logs: JavaScript errors go over as strings. */
const failure = (err) => {
  throw String(err?.stack ?? err);
};

const encoder = new TextEncoder();

/**
 * Stores `request`'s body under `key` with its media type and file name (`""`: none); resolves
 * with [the bytes stored, its first `headBytes` read back from the bucket], [-1, null] when it
 * went past `max` bytes, or [0, null] when it had none (nothing is kept of either). Whether the
 * head is the file's type is WebAssembly's to say; then `finishUpload` or `deleteKeys`.
 */
export function putFile(bucket, key, request, declared, max, partBytes, mediaType, filename, headBytes) {
  return (async () => {
    const size = await store(bucket, key, request, declared, max, partBytes, mediaType, filename);
    if (size < 0) return [-1, null];
    if (size === 0) {
      // A file of no bytes is no file: what was stored goes.
      await bucket.delete(key);
      return [0, null];
    }
    // Read back: a body of declared length went to the bucket as a stream, never held here.
    const object = await bucket.get(key, { range: { offset: 0, length: headBytes } });
    return [size, new Uint8Array(await object.arrayBuffer())];
  })().catch(failure);
}

/**
 * An upload whose bytes are its type: its marker (it waits for a message,
 * crates/core/src/files/pending.rs: the marker says since when), and the HMAC of `message` under
 * `secret` for its signed URL, in lowercase hex.
 */
export function finishUpload(bucket, marker, secret, message) {
  // A view of WebAssembly's memory, which a later growth detaches: copied before any await.
  secret = secret.slice();
  return (async () => {
    await bucket.put(marker, new Uint8Array(0), { customMetadata: { [MADE]: String(Date.now()) } });
    return sign(secret, message);
  })().catch(failure);
}

/** The custom metadata of a marker that holds when it was made, in milliseconds since the epoch. */
const MADE = "made";

/** Deletes the marker `marker` (a message named its upload), whether or not there is one. */
export function dropMarker(bucket, marker) {
  return bucket.delete(marker).catch(failure);
}

/**
 * One page of the markers (under `prefix`, from `cursor`; `""`: the first page): resolves with
 * [lines, the next page's cursor or `""`], each line a marker's key, a tab and when it was made.
 */
export function listMarkers(bucket, prefix, cursor) {
  return (async () => {
    const page = await bucket.list({ prefix, cursor: cursor === "" ? undefined : cursor, include: ["customMetadata"] });
    const lines = page.objects.map((o) => `${o.key}\t${o.customMetadata?.[MADE] ?? ""}`).join("\n");
    return [lines, page.truncated ? page.cursor : ""];
  })().catch(failure);
}

/** Deletes the keys of `keys` (a key a line), at most 1,000 a call (R2's bound). */
export function deleteKeys(bucket, keys) {
  return (async () => {
    const all = keys.split("\n");
    for (let at = 0; at < all.length; at += 1000) await bucket.delete(all.slice(at, at + 1000));
  })().catch(failure);
}

/** The HMAC-SHA-256 of `message` under `secret`, in lowercase hex. */
async function sign(secret, message) {
  const hmac = await crypto.subtle.importKey("raw", secret, HMAC, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode(message))));
}

/** The stored object's metadata: its media type, and its name when it has one (`""`: none). */
const metadata = (mediaType, filename) => ({
  httpMetadata: { contentType: mediaType },
  customMetadata: filename === "" ? {} : { filename },
});

/** The SHA-256 of `bytes` (a message's file, out of its data: URL), in lowercase hex. */
export function digestOf(bytes) {
  // digest() copies its input at once (WebCrypto's "get a copy of the bytes").
  return crypto.subtle
    .digest("SHA-256", bytes)
    .then((digest) => hex(new Uint8Array(digest)))
    .catch(failure);
}

/**
 * Keeps `bytes` under `key` with its media type and file name, unless the key holds them already
 * (a message's file is keyed by its content's hash: the same photo sent again is stored once);
 * resolves with the HMAC of `message` under `secret`, in lowercase hex, for its signed URL.
 */
export function keepFile(bucket, key, bytes, mediaType, filename, secret, message) {
  bytes = bytes.slice();
  secret = secret.slice();
  return (async () => {
    if ((await bucket.head(key)) === null) await bucket.put(key, bytes, metadata(mediaType, filename));
    return sign(secret, message);
  })().catch(failure);
}

/** The HMACs of `messages` (each of lines, between them an empty line) under `secret`, in lowercase hex, a line each. */
export function signAll(secret, messages) {
  secret = secret.slice();
  return (async () => {
    const macs = [];
    for (const message of messages.split("\n\n")) macs.push(await sign(secret, message));
    return macs.join("\n");
  })().catch(failure);
}

/**
 * Stores the body; resolves with the bytes stored, or -1 past `max`.
 *
 * `declared` (the Content-Length, or -1): a body of known length goes to `put` as it is, streamed
 * (the runtime holds it to its length). A chunked body is counted as it comes and sent as a
 * multipart upload of `partBytes` parts, so at most one part is held: past `max`, the upload is
 * aborted (its parts deleted) and the rest of the body is not read.
 */
async function store(bucket, key, request, declared, max, partBytes, mediaType, filename) {
  const options = metadata(mediaType, filename);
  const body = request.body;
  if (body === null) return (await bucket.put(key, new Uint8Array(0), options)).size;
  if (declared >= 0) return (await bucket.put(key, body, options)).size;
  const reader = body.getReader();
  let upload = null;
  const parts = [];
  let held = [];
  let heldBytes = 0;
  let total = 0;
  // The first `n` bytes held, as one array; the rest stays held.
  const take = (n) => {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = held[0];
      const used = Math.min(chunk.byteLength, n - at);
      out.set(chunk.subarray(0, used), at);
      at += used;
      if (used === chunk.byteLength) held.shift();
      else held[0] = chunk.subarray(used);
    }
    heldBytes -= n;
    return out;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        reader.cancel().catch(() => {});
        if (upload !== null) await upload.abort();
        return -1;
      }
      held.push(value);
      heldBytes += value.byteLength;
      while (heldBytes >= partBytes) {
        upload ??= await bucket.createMultipartUpload(key, options);
        parts.push(await upload.uploadPart(parts.length + 1, take(partBytes)));
      }
    }
    const rest = take(heldBytes);
    if (upload === null) return (await bucket.put(key, rest, options)).size;
    if (rest.byteLength > 0) parts.push(await upload.uploadPart(parts.length + 1, rest));
    return (await upload.complete(parts)).size;
  } catch (err) {
    if (upload !== null) await upload.abort().catch(() => {});
    throw err;
  }
}

/**
 * The file under `key`: [size, media type, file name], or null when there is none; false, before
 * the bucket is asked, when `message` is given (a signed URL's) and `macHex` (its `sig`, 64 hex
 * digits) is not its HMAC under `secret`.
 */
export function headFile(bucket, key, secret, message, macHex) {
  secret = secret.slice();
  return head(bucket, key, secret, message, macHex).catch(failure);
}

async function head(bucket, key, secret, message, macHex) {
  if (message !== "") {
    const hmac = await crypto.subtle.importKey("raw", secret, HMAC, false, ["verify"]);
    const mac = new Uint8Array(macHex.match(/../g).map((pair) => parseInt(pair, 16)));
    if (!(await crypto.subtle.verify("HMAC", hmac, mac, encoder.encode(message)))) return false;
  }
  const object = await bucket.head(key);
  if (object === null) return null;
  return [object.size, object.httpMetadata?.contentType, object.customMetadata?.filename];
}

/**
 * The answer with the file under `key` (`length` bytes from `offset`; the whole file when
 * `length` is -1), its `status` and `headers` (each name and value a line: one string crosses
 * from WebAssembly, not one a header); null when the file is gone. The body is the bucket's
 * stream, whose length the runtime knows.
 */
export function fileResponse(bucket, key, offset, length, status, headers) {
  return respond(bucket, key, offset, length, status, headers).catch(failure);
}

async function respond(bucket, key, offset, length, status, headers) {
  const object = await bucket.get(key, length >= 0 ? { range: { offset, length } } : {});
  if (object === null) return null;
  const out = new Headers();
  const lines = headers.split("\n");
  for (let i = 0; i + 1 < lines.length; i += 2) out.set(lines[i], lines[i + 1]);
  return new Response(object.body, { status, headers: out });
}

/**
 * Deletes every object under `prefix` (a session's files: `sessions/<id>/`), a listing's page
 * (at most 1,000 keys, R2's page and its `delete` batch) at a time; resolves with how many.
 */
export function deleteUnder(bucket, prefix) {
  return (async () => {
    let deleted = 0;
    for (;;) {
      const page = await bucket.list({ prefix, limit: 1000 });
      const keys = page.objects.map((object) => object.key);
      if (keys.length > 0) await bucket.delete(keys);
      deleted += keys.length;
      if (!page.truncated || keys.length === 0) return deleted;
    }
  })().catch(failure);
}
