// The AI SDK chat POST body (`DefaultChatTransport`: `{ id, messages, trigger, messageId?, … }`)
// → the prompt the agent gets: the last message must be the user's; its text parts, joined by
// newlines, are the prompt, its file parts the attachments. Same codes as the Rust adapter.

export interface Attachment { mediaType: string; url: string; filename?: string }
export interface ChatRequest { text: string; attachments: Attachment[] }

export class RequestError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_MESSAGES = 1_000;
const MAX_PROMPT_CHARS = 100_000;

const bad = (status: number, code: string, message: string) => new RequestError(status, code, message);

export function parseChatRequest(body: string): ChatRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw bad(400, "invalid_json", `The request body is not valid JSON: ${(e as Error).message}.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw bad(400, "invalid_body", "The request body must be a JSON object.");
  }
  const b = parsed as Record<string, unknown>;
  for (const field of ["id", "trigger", "messageId"]) {
    if (b[field] !== undefined && b[field] !== null && typeof b[field] !== "string") {
      throw bad(400, "invalid_field", `The request body is malformed: \`${field}\` must be a string.`);
    }
  }
  const messages = b.messages;
  if (!Array.isArray(messages)) throw bad(400, "missing_messages", "The request body must have a `messages` array.");
  if (messages.length === 0) throw bad(400, "no_messages", "`messages` is empty: there is nothing to answer.");
  if (messages.length > MAX_MESSAGES) {
    throw bad(413, "too_many_messages", `\`messages\` has more than the limit of ${MAX_MESSAGES} messages.`);
  }
  const last = messages[messages.length - 1] as Record<string, unknown> | null;
  if (typeof last !== "object" || last === null || typeof last.role !== "string" || !Array.isArray(last.parts)) {
    throw bad(400, "invalid_message", "The last message is malformed: it needs a string `role` and a `parts` array.");
  }
  if (last.role !== "user") {
    throw bad(422, "last_message_not_from_user", `The last message must come from the user, not \`${last.role}\`.`);
  }
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  (last.parts as unknown[]).forEach((raw, i) => {
    const part = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    if (typeof part.type !== "string") throw bad(400, "invalid_message", `The last message is malformed: part ${i} has no string \`type\`.`);
    if (part.type === "text") {
      if (typeof part.text !== "string") throw bad(400, "invalid_message", `The last message is malformed: text part ${i} has no string \`text\`.`);
      texts.push(part.text);
    } else if (part.type === "file") {
      if (typeof part.mediaType !== "string" || typeof part.url !== "string") {
        throw bad(400, "invalid_message", `The last message is malformed: file part ${i} needs string \`mediaType\` and \`url\`.`);
      }
      const file: Attachment = { mediaType: part.mediaType, url: part.url };
      if (typeof part.filename === "string") file.filename = part.filename;
      attachments.push(file);
    }
  });
  const text = texts.join("\n");
  if (text.trim() === "" && attachments.length === 0) {
    throw bad(422, "empty_message", "The last message has no text and no file to send to the agent.");
  }
  if ([...text].length > MAX_PROMPT_CHARS) {
    throw bad(413, "prompt_too_long", `The message is longer than the limit of ${MAX_PROMPT_CHARS} characters.`);
  }
  return { text, attachments };
}
