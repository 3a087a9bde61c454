// The types of upload-files.js, for TypeScript apps (ai 5, 6 and 7).

/** An AI SDK `FileUIPart`, as `sendMessage({ files })` takes it. */
export interface UploadedFilePart {
  type: "file";
  /** The file's signed URL on the worker (docs/files.md). */
  url: string;
  mediaType: string;
  filename?: string;
}

/** How much of a file has gone up: `loaded` of `total` bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadFileOptions {
  /** `…/api/sessions/:id/files`, or a function that gives it. */
  filesUrl: string | URL | (() => string | URL);
  /** The chat transport's credentials, or a function that gives them. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Sends with this `fetch` (then `onProgress` hears the start and the end only). */
  fetch?: typeof globalThis.fetch;
  /** Each step of the upload; without a `fetch` of its own, by `XMLHttpRequest`'s upload events. */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborts the upload, which then rejects with an `AbortError`. */
  signal?: AbortSignal;
}

export interface UploadOptions extends Omit<UploadFileOptions, "onProgress"> {
  /** Each step of each file's upload: the file and its place in the list, with its progress. */
  onProgress?: (progress: UploadProgress & { index: number; file: Blob & { name?: string } }) => void;
}

/** A file the worker refused: its `error.code` (`file_too_large`, `file_type_not_allowed`, …). */
export declare class UploadError extends Error {
  file: string;
  status: number;
  code: string;
  /** For `file_too_large`: the most bytes one upload may be, as the worker said. */
  limit?: number;
}

/** Uploads each file in order; resolves with their parts, or rejects at the first refused. */
export declare function uploadFiles(
  files: FileList | Iterable<Blob & { name?: string }> | null | undefined,
  options: UploadOptions,
): Promise<UploadedFilePart[]>;

/** Uploads one file; resolves with its part, or rejects with an `UploadError` (refused), an `AbortError` or a `TypeError` (the network). */
export declare function uploadFile(file: Blob & { name?: string }, options: UploadFileOptions): Promise<UploadedFilePart>;
