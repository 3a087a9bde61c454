// How big one stored message may be (its JSON, one row of the object's SQLite storage), and how a
// reply that outgrows it is still kept: a user message over the cap is refused in words before
// anything is stored (`message_too_large`, ./session.ts); a reply (which the model wrote, and which
// must end) is stored shortened, with a mark the user and the model can read, as the demo agent
// stores one (crates/demo/src/rows.rs).

import type { Message, Part } from "./protocol.js";

/** The most bytes one message is stored as (its JSON): 1.5 MiB. A SQLite-backed Durable Object
 * refuses a string, BLOB or row over 2 MB (Cloudflare's Durable Objects limits); three quarters of
 * a MiB under that leaves room for the row's other columns (its ref, id and parent: a few hundred
 * bytes) and holds a photo of some 1.1 MB sent as a data URL. A page (MAX_PAGE_BYTES, 3 MiB, of
 * ./tree.ts) holds at least one such message, and always its newest. */
export const MAX_ROW_BYTES = 1.5 * 1024 * 1024;

/** What ends a text shortened to fit in a row (the demo agent's SHORTENED_MARK). */
export const SHORTENED_MARK = " [… shortened]";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of `value`'s JSON. */
export const jsonSize = (value: unknown): number => encoder.encode(JSON.stringify(value) ?? "").byteLength;

/** What a tool's args or result, or an answer, too large to keep is stored as: its size said. */
export const shortenedValue = (bytes: number) => ({ shortened: "too large to keep", bytes });

/** A JSON value of a part that may be replaced by `shortenedValue`. */
type ValueSlot = { get: () => unknown; set: (value: unknown) => void };
/** A text of a part that may be shortened. */
type TextSlot = { original: string; set: (text: string) => void };

/** `message` as it is stored: itself when its JSON fits in MAX_ROW_BYTES; else a copy whose
 * largest values (a tool's args or result, an answer, a data part's data, a metadata object) are replaced by `shortenedValue` until the
 * rest of the message takes at most half of the row, then whose texts (text, reasoning, a tool's
 * error, a question's text) each get an equal share, halved until the row fits, shortened with
 * SHORTENED_MARK. A message of thousands of parts may still not fit: it is returned as small as it
 * got, and its save fails in words (./session.ts). */
export function fitted(message: Message): Message {
  if (jsonSize(message) <= MAX_ROW_BYTES) return message;
  const copy: Message = { ...message, parts: message.parts.map((part) => ({ ...part }) as Part) };
  const { values, texts } = slots(copy.parts);
  for (const text of texts) text.set("");
  while (jsonSize(copy) > MAX_ROW_BYTES / 2) {
    const sized = values.map((slot) => ({ slot, bytes: jsonSize(slot.get()) }));
    const largest = sized.reduce<(typeof sized)[number] | undefined>((max, v) => (max === undefined || v.bytes > max.bytes ? v : max), undefined);
    if (!largest || largest.bytes <= jsonSize(shortenedValue(largest.bytes))) break;
    largest.slot.set(shortenedValue(largest.bytes));
  }
  let share = Math.floor(MAX_ROW_BYTES / Math.max(texts.length, 1));
  for (;;) {
    for (const text of texts) text.set(shorten(text.original, share));
    if (jsonSize(copy) <= MAX_ROW_BYTES || share === 0) return copy;
    share = Math.floor(share / 2);
  }
}

/** The values and texts of `parts` that `fitted` may make smaller. */
function slots(parts: Part[]): { values: ValueSlot[]; texts: TextSlot[] } {
  const values: ValueSlot[] = [];
  const texts: TextSlot[] = [];
  const text = (original: string | undefined, set: (text: string) => void) => original !== undefined && texts.push({ original, set });
  for (const part of parts) {
    if (part.type === "text" || part.type === "reasoning") text(part.text, (t) => (part.text = t));
    else if (part.type === "tool-call") {
      if (part.args !== undefined) values.push({ get: () => part.args, set: (v) => (part.args = v) });
      if (part.result !== undefined) values.push({ get: () => part.result, set: (v) => (part.result = v) });
      text(part.error, (t) => (part.error = t));
    } else if (part.type === "question") {
      if (part.answer !== undefined) values.push({ get: () => part.answer, set: (v) => (part.answer = v) });
      text(part.text, (t) => (part.text = t));
    } else if (part.type === "error") text(part.message, (t) => (part.message = t));
    else if (part.type === "data") values.push({ get: () => part.data, set: (v) => (part.data = v) });
    else if (part.type === "metadata") values.push({ get: () => part.metadata, set: (v) => (part.metadata = v as Record<string, unknown>) });
  }
  return { values, texts };
}

/** `text` cut to at most `max` bytes of UTF-8 (at a character's end) and SHORTENED_MARK; unchanged
 * when it is no longer. */
export function shorten(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= max) return text;
  return decoder.decode(bytes.subarray(0, max)).replace(/\uFFFD+$/, "") + SHORTENED_MARK;
}

/** A size in words, in MB of 1,048,576 bytes, to a tenth: rounded up (`up`, a message's size, so
 * that one over the cap never reads as the cap) or down (the cap's): "1.6 MB". */
export function sizeInWords(bytes: number, round: "up" | "down"): string {
  const tenths = (bytes / (1024 * 1024)) * 10;
  return `${(round === "up" ? Math.ceil(tenths) : Math.floor(tenths)) / 10} MB`;
}
