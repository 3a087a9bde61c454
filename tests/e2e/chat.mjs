// The AI SDK's `Chat`, without a UI framework: `AbstractChat` over an in-memory `ChatState`,
// the way @ai-sdk/react, /vue and /svelte each build their `Chat` on top of it.

import assert from "node:assert/strict";

/** Loads `Chat` and `DefaultChatTransport` from one AI SDK package (an npm alias: "ai-v5", …). */
export async function loadSdk(pkg) {
  const { AbstractChat, DefaultChatTransport } = await import(pkg);

  class MemoryState {
    status = "ready";
    error = undefined;
    messages = [];
    constructor(messages = []) {
      this.messages = messages;
    }
    pushMessage = (m) => { this.messages = this.messages.concat(m); };
    popMessage = () => { this.messages = this.messages.slice(0, -1); };
    replaceMessage = (i, m) => {
      this.messages = [...this.messages.slice(0, i), this.snapshot(m), ...this.messages.slice(i + 1)];
    };
    snapshot = (thing) => structuredClone(thing);
  }

  // `messages` seeds the state, as the framework `Chat` classes do (it is not an option of
  // `AbstractChat` itself).
  class Chat extends AbstractChat {
    constructor({ messages, ...init }) {
      super({ ...init, state: new MemoryState(messages) });
    }
  }
  return { Chat, DefaultChatTransport };
}

/**
 * A stock `Chat` of `pkg` posting to `api`, as `{ chat, errors, sdk }`: `errors` collects what
 * `onError` reports; `auto`, the name of one of the SDK's `sendAutomaticallyWhen` helpers, makes
 * it send by itself when that helper says so; `headers`, `body` and `fetch` go to its transport.
 */
export async function stockChat(pkg, api, { auto, id, messages, headers, body, fetch } = {}) {
  const sdk = await import(pkg);
  const { Chat, DefaultChatTransport } = await loadSdk(pkg);
  const errors = [];
  const chat = new Chat({
    id,
    messages,
    transport: new DefaultChatTransport({ api, headers, body, ...(fetch ? { fetch } : {}) }),
    ...(auto ? { sendAutomaticallyWhen: (options) => sdk[auto](options) } : {}),
    onError: (e) => errors.push(e),
  });
  return { chat, errors, sdk };
}

/** A message's text parts, joined. */
export const textOf = (message) => (message?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("");

/** No part appears twice: text and reasoning by their text, tools by call id, data parts by id. */
export function assertNoDuplicatedPart(message) {
  const keys = message.parts
    .filter((p) => p.type !== "step-start")
    .map((p) => p.toolCallId ?? (p.type.startsWith("data-") ? `${p.type}:${p.id}` : `${p.type}:${p.text}`));
  assert.deepEqual(keys, [...new Set(keys)], `duplicated parts: ${JSON.stringify(message.parts)}`);
}
