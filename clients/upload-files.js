// A chat's attachments as files in the worker's R2 bucket (docs/files.md): each `File` of a
// `FileList` (an `<input type="file">`, a drop) or an array is uploaded to
// `POST /api/sessions/:id/files`, and its answer, an AI SDK `FileUIPart`, is what `sendMessage`
// takes as it is: `sendMessage({ text, files: await uploadFiles(input.files, options) })`. No
// dependency, not even on `ai`: `fetch` and the files themselves.

/** Why an upload was refused: the worker's `error.code` and `message`, and the file's name. */
export class UploadError extends Error {
  constructor(file, status, code, message) {
    super(`${file}: ${message}`);
    this.name = "UploadError";
    this.file = file;
    this.status = status;
    this.code = code;
  }
}

/**
 * Uploads `files` (a `FileList`, or an iterable of `File`s / `Blob`s), one after the other, to
 * `filesUrl` (`…/api/sessions/:id/files`, or a function that gives it) with `headers` (the chat
 * transport's credentials, or a function that gives them); resolves with their `FileUIPart`s, in
 * order (each `{ type: "file", url, mediaType, filename }`, its `size` removed: a message's part
 * is the AI SDK's shape). A file the worker refuses (too large, a type it does not take) rejects
 * with an `UploadError`; the files before it stay uploaded. `fetch` may be given (a test's, or
 * `expo/fetch`).
 */
export async function uploadFiles(files, { filesUrl, headers = {}, fetch: fetchFn = globalThis.fetch } = {}) {
  const parts = [];
  for (const file of Array.from(files ?? [])) {
    const url = new URL(typeof filesUrl === "function" ? filesUrl() : filesUrl, globalThis.location?.href);
    if (file.name) url.searchParams.set("filename", file.name);
    const response = await fetchFn(url, {
      method: "POST",
      headers: { ...(typeof headers === "function" ? await headers() : headers), "content-type": file.type || "application/octet-stream" },
      body: file,
    });
    const answer = await response.json().catch(() => null);
    if (!response.ok || answer?.type !== "file") {
      const error = answer?.error ?? {};
      throw new UploadError(file.name ?? "file", response.status, error.code ?? "upload_failed", error.message ?? `the upload failed (${response.status})`);
    }
    const { size: _size, ...part } = answer;
    parts.push(part);
  }
  return parts;
}
