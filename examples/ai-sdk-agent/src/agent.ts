// Your agent: a model, its tools and its prompt. Everything else (the sockets, the turns, stop,
// questions and approvals, the history across restarts) is the SessionAgent library's.

import { SessionAgent, type Emit, type ModelInput } from "session-agent";
import { streamTextModel } from "session-agent/ai-sdk";
import { generateText, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { createWorkersAI } from "workers-ai-provider";
import { z } from "zod";
import { mockModel } from "./mock-model";

export interface Env {
  AI?: Ai;
  /** The adapter's bucket of the sessions' files (the same `bucket_name`): the model is given each
   * file's bytes, read through it. */
  FILES?: R2Bucket;
  /** "mock": the AI SDK's mock language model (src/mock-model.ts), for tests with no account. */
  MODEL?: string;
}

const system = "You are a helpful assistant. Use the tools when they help; ask the user with askUser when you need a choice.";

// What names a conversation in the user's list, from its first message (the library asks it once).
const titling = "Name this conversation in at most six words, from the user's first message. Answer with the name alone.";

const tools = {
  // A server tool: runs here, its result goes back to the model.
  getWeather: tool({
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: "sunny", celsius: 21 }),
  }),
  // A tool the user approves or denies first: denied, it never runs.
  deploy: tool({
    description: "Deploys the site",
    inputSchema: z.object({ target: z.enum(["staging", "production"]) }),
    needsApproval: true,
    execute: async ({ target }) => ({ deployed: target }),
  }),
  // No execute: the user answers it, and the answer is its result.
  askUser: tool({
    description: "Asks the user a question, with options to choose from",
    inputSchema: z.object({ question: z.string(), options: z.array(z.string()).optional() }),
  }),
};

function languageModel(env: Env): LanguageModel {
  if (env.MODEL === "mock") return mockModel();
  if (!env.AI) throw new Error("No model: bind Workers AI ([ai] binding = \"AI\") or set MODEL = \"mock\".");
  return createWorkersAI({ binding: env.AI })("@cf/meta/llama-3.3-70b-instruct-fp8-fast");
  // Another provider is one line: return openai("gpt-5-mini"); (import { openai } from "@ai-sdk/openai")
}

export class ChatAgent extends SessionAgent<Env> {
  private model = streamTextModel(
    streamText,
    () => ({ model: languageModel(this.env), system, tools, stopWhen: stepCountIs(5) }),
    {},
    {
      files: () => this.env.FILES,
      title: async ({ prompt }) => (await generateText({ model: languageModel(this.env), system: titling, prompt })).text,
    },
  );

  protected respond(input: ModelInput, emit: Emit, signal: AbortSignal) {
    return this.model(input, emit, signal);
  }
}
