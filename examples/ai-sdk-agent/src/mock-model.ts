// The test mode's model (MODEL = "mock"): the AI SDK's mock language model, scripted by the last
// message it is given, so that tests and check-agent run this agent with no account and no
// network. Not your code: your agent's model is in src/agent.ts.
//
//   /weather   calls getWeather          /deploy   calls deploy (approval first)
//   /ask TEXT  calls askUser with TEXT   /long     a reply of 3 s, to stop or join mid-way
//   /fail      the provider fails (503)  /sources  a reply citing a web page and a document
//   anything else: a reply naming every user message given, and each file of the last one
//   (its media type and its bytes' length, or that it came as a URL)
// Asked without streaming (generateText: the conversation's title), it answers `About ` and the
// first six words of the last message.
// After a tool's result it says what came back (or that it was denied).

import { simulateReadableStream, type LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";

type Prompt = Parameters<MockLanguageModelV3["doStream"]>[0]["prompt"];
type Chunk = { type: string } & Record<string, unknown>;

/** Milliseconds between two chunks: a reply streams as a real one does. */
const CHUNK_DELAY_MS = 10;
/** Between two words of `/long`: 60 words in 3 s. */
const LONG_DELAY_MS = 50;

export function mockModel(): LanguageModel {
  return new MockLanguageModelV3({
    provider: "mock",
    modelId: "mock-model",
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      const said = last?.role === "user" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join(" ") : "";
      const text = `About ${said.split(/\s+/).filter(Boolean).slice(0, 6).join(" ")}`;
      const { finishReason, usage } = finish("stop", text.split(" ").length) as unknown as { finishReason: never; usage: never };
      return { content: [{ type: "text", text }], finishReason, usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      const last = prompt.at(-1);
      const said = last?.role === "user" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("").trim() : "";
      if (said === "/fail") throw Object.assign(new Error("mock provider: overloaded"), { statusCode: 503 });
      const chunks = last?.role === "tool" ? reply(afterTools(last.content)) : script(said, prompt);
      const delay = said === "/long" ? LONG_DELAY_MS : CHUNK_DELAY_MS;
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: delay }) as never };
    },
  });
}

function script(said: string, prompt: Prompt): Chunk[] {
  if (said === "/weather") return call("getWeather", { city: "Paris" });
  if (said === "/deploy") return call("deploy", { target: "production" });
  if (said.startsWith("/ask")) return call("askUser", { question: said.slice(4).trim() || "Which region?", options: ["eu", "us"] });
  if (said === "/sources") {
    return [
      { type: "source", sourceType: "url", id: "src_web", url: "https://developers.cloudflare.com/durable-objects/", title: "Durable Objects" },
      { type: "source", sourceType: "document", id: "src_doc", mediaType: "application/pdf", title: "Limits", filename: "limits.pdf" },
      ...reply("Two sources say so."),
    ];
  }
  if (said === "/long") return reply(Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(" "));
  const users = prompt.filter((m) => m.role === "user").map((m) => m.content.map((p) => (p.type === "text" ? p.text : "")).join(""));
  const last = prompt.at(-1);
  const files = last?.role === "user" ? last.content.flatMap((p) => (p.type === "file" ? [fileSeen(p.mediaType, p.data)] : [])) : [];
  return reply(`You said: ${said}. I was given ${users.length} user messages: ${users.join(" | ")}.${files.map((f) => ` ${f}.`).join("")}`);
}

/** How the model was given a file: its bytes (their length), or a URL to fetch. */
function fileSeen(mediaType: string, data: unknown): string {
  if (data instanceof Uint8Array) return `A file ${mediaType} of ${data.byteLength} bytes`;
  return `A file ${mediaType} at a URL`;
}

/** What the model says once its tools are done. */
function afterTools(results: Extract<Prompt[number], { role: "tool" }>["content"]): string {
  return results
    .map((r) => {
      if (r.type !== "tool-result") return "";
      const output = r.output as { type: string; value?: unknown; reason?: string };
      if (output.type === "execution-denied") return `I did not run ${r.toolName}${output.reason ? `: ${output.reason}` : ""}.`;
      if (output.type === "error-text") return `${r.toolName} failed: ${output.value}.`;
      return `${r.toolName} gave ${typeof output.value === "string" ? output.value : JSON.stringify(output.value)}.`;
    })
    .join(" ");
}

function call(toolName: string, input: unknown): Chunk[] {
  const id = `call_${crypto.randomUUID().slice(0, 8)}`;
  const json = JSON.stringify(input);
  return [
    { type: "tool-input-start", id, toolName },
    { type: "tool-input-delta", id, delta: json },
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName, input: json },
    finish("tool-calls", 1),
  ];
}

function reply(text: string): Chunk[] {
  const words = text.split(/(?<= )/);
  return [
    { type: "text-start", id: "t" },
    ...words.map((delta) => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    finish("stop", words.length),
  ];
}

function finish(unified: string, output: number): Chunk {
  return {
    type: "finish",
    finishReason: { unified, raw: unified },
    usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: output, text: output, reasoning: undefined } },
  };
}
