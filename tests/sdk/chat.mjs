// Feeds an SSE body to an AI SDK build through its public client path (AbstractChat + DefaultChatTransport).

export const UI_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-store',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

const TIMEOUT_MS = 30_000;

/** A Response whose body arrives in pieces of `pieceSize` bytes (0 = one piece). */
function sseResponse(bytes, pieceSize = 0) {
  const size = pieceSize > 0 ? pieceSize : Math.max(bytes.length, 1);
  const body = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: UI_STREAM_HEADERS });
}

/** In-memory ChatState that snapshots on every write: what a UI would have rendered. */
class MemoryChatState {
  status = 'ready';
  error = undefined;
  messages = [];
  pushMessage = (m) => {
    this.messages = this.messages.concat(structuredClone(m));
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (i, m) => {
    this.messages = [...this.messages.slice(0, i), structuredClone(m), ...this.messages.slice(i + 1)];
  };
  snapshot = (thing) => structuredClone(thing);
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle in ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `chat.sendMessage({text:'hi'})` against `bytes`; returns what the app would observe. */
export async function runChat(sdk, bytes) {
  const { AbstractChat, DefaultChatTransport } = sdk;
  const requests = [];
  const transport = new DefaultChatTransport({
    api: 'http://adapter.test/api/chat',
    fetch: async (url, init) => {
      requests.push({ url: String(url), method: init?.method });
      return sseResponse(bytes);
    },
  });
  const data = [];
  const errors = [];
  let finished = 0;
  class TestChat extends AbstractChat {
    constructor() {
      super({
        state: new MemoryChatState(),
        transport,
        onData: (part) => data.push(structuredClone(part)),
        onError: (e) => errors.push(e),
        onFinish: () => finished++,
      });
    }
  }
  const chat = new TestChat();
  await withTimeout(chat.sendMessage({ text: 'hi' }), 'chat.sendMessage');
  return {
    status: chat.status,
    error: chat.error,
    messages: chat.messages,
    data,
    errors,
    finished,
    requests,
  };
}

/**
 * Cross-check: the transport's own parse (SSE + chunk schema) piped into the public
 * readUIMessageStream, with the body delivered in small pieces. Returns the last message
 * yielded and the error that terminated the stream, if any.
 */
export async function readWithReadUIMessageStream(sdk, bytes, pieceSize = 7) {
  const { DefaultChatTransport, readUIMessageStream } = sdk;
  const transport = new DefaultChatTransport({
    api: 'http://adapter.test/api/chat',
    fetch: async () => sseResponse(bytes, pieceSize),
  });
  const stream = await transport.sendMessages({
    chatId: 'chat-1',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    abortSignal: undefined,
    trigger: 'submit-message',
    messageId: undefined,
  });
  let message;
  let error;
  try {
    const iterate = async () => {
      for await (const m of readUIMessageStream({ stream, terminateOnError: true })) message = m;
    };
    await withTimeout(iterate(), 'readUIMessageStream');
  } catch (e) {
    error = e;
  }
  return { message, error };
}
