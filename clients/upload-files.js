// A chat's attachments as files in the worker's R2 bucket (docs/files.md): each `File` of a
// `FileList` (an `<input type="file">`, a drop) or an array is uploaded to
// `POST /api/sessions/:id/files`, and its answer, an AI SDK `FileUIPart`, is what `sendMessage`
// takes as it is: `sendMessage({ text, files: await uploadFiles(input.files, options) })`. No
// dependency, not even on `ai`: `fetch` (or, for an upload's progress, `XMLHttpRequest`) and the
// files themselves.

/**
 * Why an upload was refused: the worker's `error.code` and `message`, and the file's name; for
 * `file_too_large`, the worker's `limit` in bytes (read from its message), where it says one.
 */
export class UploadError extends Error {
  constructor(file, status, code, message) {
    super(`${file}: ${message}`);
    this.name = "UploadError";
    this.file = file;
    this.status = status;
    this.code = code;
    const limit = code === "file_too_large" ? /(\d+) bytes/.exec(message) : null;
    if (limit) this.limit = Number(limit[1]);
  }
}

/**
 * Uploads `files` (a `FileList`, or an iterable of `File`s / `Blob`s), one after the other, to
 * `filesUrl` (`…/api/sessions/:id/files`, or a function that gives it) with `headers` (the chat
 * transport's credentials, or a function that gives them); resolves with their `FileUIPart`s, in
 * order (each `{ type: "file", url, mediaType, filename }`, its `size` removed: a message's part
 * is the AI SDK's shape). A file the worker refuses (too large, a type it does not take) rejects
 * with an `UploadError`; the files before it stay uploaded. `fetch` may be given (a test's, or
 * `expo/fetch`). `onProgress({ index, file, loaded, total })` hears each file's bytes as they
 * go, and `signal` aborts (see uploadFile).
 */
export async function uploadFiles(files, options = {}) {
  const parts = [];
  for (const [index, file] of Array.from(files ?? []).entries()) {
    const onProgress = options.onProgress && ((progress) => options.onProgress({ ...progress, index, file }));
    parts.push(await uploadFile(file, { ...options, onProgress }));
  }
  return parts;
}

/**
 * Uploads one `file` as uploadFiles does; resolves with its `FileUIPart`. With `onProgress`
 * (`({ loaded, total }) => void`) and no `fetch` given, the upload goes by `XMLHttpRequest`,
 * whose upload events say how many bytes went so far (fetch cannot say it of a request over
 * HTTP/1.1); with a `fetch`, or where there is no `XMLHttpRequest`, `onProgress` hears the start
 * and the end only. `signal` (an `AbortSignal`) aborts the upload: it then rejects with an
 * `AbortError`. A network failure rejects as `fetch` does, with a `TypeError`.
 */
export async function uploadFile(file, { filesUrl, headers = {}, fetch: fetchFn, onProgress, signal } = {}) {
  const url = new URL(typeof filesUrl === "function" ? filesUrl() : filesUrl, globalThis.location?.href);
  if (file.name) url.searchParams.set("filename", file.name);
  const head = {
    ...(typeof headers === "function" ? await headers() : headers),
    "content-type": file.type || "application/octet-stream",
  };
  const total = file.size;
  let answered;
  if (onProgress && !fetchFn && typeof XMLHttpRequest === "function") {
    answered = await post(url, head, file, signal, onProgress);
  } else {
    onProgress?.({ loaded: 0, total });
    const response = await (fetchFn ?? globalThis.fetch)(url, { method: "POST", headers: head, body: file, signal });
    answered = { status: response.status, answer: await response.json().catch(() => null) };
    onProgress?.({ loaded: total, total });
  }
  const { status, answer } = answered;
  if (status < 200 || status > 299 || answer?.type !== "file") {
    const error = answer?.error ?? {};
    throw new UploadError(file.name ?? "file", status, error.code ?? "upload_failed", error.message ?? `the upload failed (${status})`);
  }
  const { size: _size, ...part } = answer;
  return part;
}

/** POSTs `body` by XMLHttpRequest, its upload's progress to `onProgress`; resolves with { status, answer }. */
function post(url, headers, body, signal, onProgress) {
  return new Promise((resolve, reject) => {
    const aborted = () => reject(signal?.reason ?? new DOMException("The upload was aborted.", "AbortError"));
    if (signal?.aborted) return aborted();
    const request = new XMLHttpRequest();
    request.open("POST", url.href);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : body.size });
    request.onload = () => {
      let answer = null;
      try {
        answer = JSON.parse(request.responseText);
      } catch {
        // Not the worker's JSON: the status says what happened.
      }
      onProgress({ loaded: body.size, total: body.size });
      resolve({ status: request.status, answer });
    };
    request.onerror = () => reject(new TypeError("the upload failed: network error"));
    request.onabort = aborted;
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    onProgress({ loaded: 0, total: body.size });
    request.send(body);
  });
}
