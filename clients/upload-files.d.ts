// The types of upload-files.js, for TypeScript apps (ai 5, 6 and 7).

/** An AI SDK `FileUIPart`, as `sendMessage({ files })` takes it. */
export interface UploadedFilePart {
  type: "file";
  /** The file's signed URL on the worker (docs/files.md). */
  url: string;
  mediaType: string;
  filename?: string;
}

export interface UploadOptions {
  /** `…/api/sessions/:id/files`, or a function that gives it. */
  filesUrl: string | URL | (() => string | URL);
  /** The chat transport's credentials, or a function that gives them. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof globalThis.fetch;
}

/** A file the worker refused: its `error.code` (`file_too_large`, `file_type_not_allowed`, …). */
export declare class UploadError extends Error {
  file: string;
  status: number;
  code: string;
}

/** Uploads each file in order; resolves with their parts, or rejects at the first refused. */
export declare function uploadFiles(
  files: FileList | Iterable<Blob & { name?: string }> | null | undefined,
  options: UploadOptions,
): Promise<UploadedFilePart[]>;
