// The files a visitor attaches to their next message (the attach button, the camera, a paste, a
// drop: Composer, Conversation): each is uploaded the moment it is chosen, through the session's
// files route (clients/upload-files.js, with the panel's token, renewed once after a 401), its
// progress, its error in words and a Retry where one can help; once every one is up, the
// message goes with their FileUIParts. A worker without a bucket (`501 files_not_configured`)
// takes none: the first upload tells, and the panel offers attachments no more.
import { useEffect, useRef, useState } from "preact/hooks";
import { UploadError, uploadFile } from "../../clients/upload-files.js";
import { sessionBase } from "./api.js";
import { format } from "./locale.js";

/**
 * What the file input offers: the worker's FILE_TYPES by default (docs/files.md). Named types,
 * not `image/*`: a phone then hands over a JPEG of a photo it keeps as HEIC.
 */
export const ACCEPT = "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain";

/** The raster images a panel shows inline, as the worker serves them inline. */
const INLINE_IMAGES = /^image\/(png|jpeg|gif|webp|avif)$/;

export const isInlineImage = (mediaType) => INLINE_IMAGES.test(String(mediaType).toLowerCase());

/** The sizes of the files this page uploaded, by URL: a message's part has none (the AI SDK's shape). */
const sizes = new Map();

/** A file part's size in bytes: its own `size`, else that of this page's upload of it; or undefined. */
export const sizeOf = (part) => (typeof part.size === "number" ? part.size : sizes.get(part.url));

/** `bytes` as a reader of `locale` writes a file's size: "812 bytes", "48 kB", "2.4 MB" (by 1,024). */
export function formatSize(bytes, locale) {
  const [unit, value] =
    bytes < 1024 ? ["byte", bytes] : bytes < 1024 * 1024 ? ["kilobyte", bytes / 1024] : ["megabyte", bytes / 1024 / 1024];
  const unitDisplay = unit === "byte" ? "long" : "short";
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay, maximumFractionDigits: 1 }).format(value);
}

/**
 * Whether a retry may help an upload that failed with `error`: the network, the worker (5xx), a
 * rate limit, a token; not a refusal of the file itself (too large, its type, its name, empty…).
 */
const retryable = (error) => !(error instanceof UploadError) || error.status >= 500 || [401, 403, 408, 429].includes(error.status);

/** What the visitor is told of an upload that failed with `error` (`t`: the locale's messages). */
export function uploadErrorText(error, item, t, locale) {
  switch (error instanceof UploadError ? error.code : "") {
    case "file_too_large":
      return error.limit ? format(t.fileTooLarge, { limit: formatSize(error.limit, locale) }) : t.uploadFailed;
    case "file_type_not_allowed":
      return format(t.fileTypeNotAllowed, { type: item.file.type || "?" });
    case "invalid_filename":
      return t.fileNameRefused;
    case "unauthorized":
    case "invalid_token":
    case "token_expired":
    case "forbidden":
      return t.notAllowed;
    case "rate_limited":
      return t.tooMany;
    default:
      return t.uploadFailed;
  }
}

let lastId = 0;

/**
 * The attachments of the message being written. Returns { items, add(files), remove(id),
 * retry(id), clear(), uploading, failed, parts(), enabled, unavailable }: each item is
 * { id, file, status: "uploading" | "done" | "failed", loaded, error, canRetry, part }; `parts()`
 * the FileUIParts of those uploaded; `enabled` whether the panel takes files (the site's
 * `attachments`, and the worker has a bucket); `unavailable` once the worker said it has none.
 */
export function useAttachments(config) {
  const [items, setItems] = useState([]);
  const [unavailable, setUnavailable] = useState(false);
  const uploads = useRef(new Map());
  const update = (id, change) => setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  const stopAll = () => {
    for (const controller of uploads.current.values()) controller.abort();
    uploads.current.clear();
  };

  const start = (id, file) => {
    const controller = new AbortController();
    uploads.current.set(id, controller);
    const options = (renew) => ({
      filesUrl: `${sessionBase(config)}/files`,
      headers: () => config.tokens.header(renew),
      signal: controller.signal,
      onProgress: ({ loaded }) => update(id, { loaded }),
    });
    uploadFile(file, options(false))
      .catch((error) => {
        // The token was refused: once more with a renewed one, as every request of the panel's.
        if (error instanceof UploadError && error.status === 401 && config.tokens.renewable) return uploadFile(file, options(true));
        throw error;
      })
      .then(
        (part) => {
          sizes.set(part.url, file.size);
          update(id, { status: "done", part });
        },
        (error) => {
          if (controller.signal.aborted) return;
          if (error instanceof UploadError && error.code === "files_not_configured") {
            stopAll();
            setItems([]);
            setUnavailable(true);
            return;
          }
          update(id, { status: "failed", error, canRetry: retryable(error) });
        },
      )
      .finally(() => {
        if (uploads.current.get(id) === controller) uploads.current.delete(id);
      });
  };

  // The panel goes (`logout`, `destroy`, a new `init`): so do its uploads.
  useEffect(() => stopAll, []);

  const enabled = config.attachments !== false && !unavailable;
  return {
    items,
    enabled,
    unavailable,
    uploading: items.some((item) => item.status === "uploading"),
    failed: items.some((item) => item.status === "failed"),
    /** Starts uploading each of `files` (a FileList, an array). */
    add(files) {
      if (!enabled) return;
      const added = Array.from(files ?? []).map((file) => ({ id: ++lastId, file, status: "uploading", loaded: 0 }));
      setItems((list) => [...list, ...added]);
      for (const item of added) start(item.id, item.file);
    },
    /** Takes a file off the message (its upload stops, if it runs). */
    remove(id) {
      uploads.current.get(id)?.abort();
      uploads.current.delete(id);
      setItems((list) => list.filter((item) => item.id !== id));
    },
    retry(id) {
      const item = items.find((it) => it.id === id);
      if (!item) return;
      update(id, { status: "uploading", loaded: 0, error: undefined });
      start(id, item.file);
    },
    /** Empties the list, once its files went with a message. */
    clear() {
      stopAll();
      setItems([]);
    },
    parts: () => items.filter((item) => item.status === "done").map((item) => item.part),
  };
}
