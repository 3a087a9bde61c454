// The files of the session's conversation, read for the model: each file part whose URL is the
// adapter's (../file-url.ts, `adapterFileKey`) is read from the adapter's bucket through the
// agent's binding (`[[r2_buckets]]` binding `FILES`, the same bucket), so that the model is given
// the bytes whatever the URL's host and however long ago its signature ran out
// (docs/your-agent.md, "Files").

import { adapterFileKey } from "../file-url.js";
import type { Message } from "../protocol.js";

/** What this bridge reads of an R2 bucket (`R2Bucket`'s `get`). */
export interface FileBucket {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

/** The bytes of every adapter file of `history`, by its bucket key: each read once; one that is
 * gone or cannot be read is left out (the model is then told it is not available, ./messages.ts),
 * with a JSON log line. */
export async function readFiles(history: Message[], bucket: FileBucket | undefined): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  if (bucket === undefined) return files;
  const keys = new Set(
    history.flatMap((message) => message.parts.flatMap((part) => (part.type === "file" ? [adapterFileKey(part.url)] : []))).filter((key): key is string => key !== null),
  );
  for (const key of keys) {
    try {
      const object = await bucket.get(key);
      if (object !== null) files.set(key, new Uint8Array(await object.arrayBuffer()));
      else console.error(JSON.stringify({ event: "session_agent.file_missing", key }));
    } catch (err) {
      console.error(JSON.stringify({ event: "session_agent.file_unreadable", key, error: err instanceof Error ? err.message : String(err) }));
    }
  }
  return files;
}
