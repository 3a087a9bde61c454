// What a question's wording is given, as a team's agent types it (`streamTextModel`'s third
// argument, packages/session-agent/src/ai-sdk/questions.ts): the waiting call of one of the
// agent's tools, its `toolName` one of theirs and its `args` that tool's input, narrowed by a check
// of `toolName`. Compiled by asking_types.test.mjs with `tsc --noEmit`, on ai 6 and on ai 7: a
// wording that reads a field its tool's input does not have fails to compile, and so would the
// docs' own example if `args` were `unknown` (or `any`, which the second part tells).

import { streamText, tool, type LanguageModel } from "ai";
import { z } from "zod";
import { streamTextModel } from "../../../../packages/session-agent/src/ai-sdk";

declare const model: LanguageModel;

const tools = {
  deploy: tool({
    description: "Deploys the site",
    inputSchema: z.object({ target: z.enum(["staging", "production"]) }),
    needsApproval: true,
    execute: async ({ target }) => ({ deployed: target }),
  }),
  askUser: tool({
    description: "Asks the user",
    inputSchema: z.object({ question: z.string(), options: z.array(z.string()).optional() }),
  }),
};

// docs/your-agent.md's wording: the target of a deploy, the question of an askUser.
export const agent = streamTextModel(streamText, () => ({ model, tools }), {
  approval: (call) => (call.toolName === "deploy" ? `Deploy to ${call.args.target}?` : `Allow ${call.toolName}?`),
  question: (call) => (call.toolName === "askUser" ? { text: call.args.question, options: call.args.options } : { text: `${call.toolName}?` }),
});

// The input's own fields only: not one its tool does not have, not another tool's.
export const wrong = streamTextModel(streamText, () => ({ model, tools }), {
  // @ts-expect-error `deploy`'s input has no `region`
  approval: (call) => (call.toolName === "deploy" ? `Deploy to ${call.args.region}?` : ""),
  // @ts-expect-error `askUser`'s input has no `target`
  question: (call) => ({ text: call.toolName === "askUser" ? call.args.target : "" }),
});

// A tool name the agent does not have is no case of `toolName`.
export const unknownName = streamTextModel(streamText, () => ({ model, tools }), {
  // @ts-expect-error no tool of the agent is called `getWeather`
  approval: (call) => (call.toolName === "getWeather" ? "" : ""),
});
