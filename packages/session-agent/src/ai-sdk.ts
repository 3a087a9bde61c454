// The AI SDK's `streamText` as a SessionAgent's model (`session-agent/ai-sdk`): `streamTextModel`
// (./ai-sdk/stream-text.ts) runs a turn, and the calls it leaves waiting on the user become
// questions (./ai-sdk/questions.ts); `toModelMessages` (./ai-sdk/messages.ts) is the session's
// conversation as the AI SDK's messages.
//
// The package does not import `ai`: an agent hands it its own `streamText` (ai 6 or 7), so the
// agent's version is the one that runs.
//
//   const model = streamTextModel(streamText, () => ({ model: workersai("@cf/meta/llama-3.1-8b-instruct"), tools }));
//   export class MyAgent extends SessionAgent<Env> {
//     protected respond(input: ModelInput, emit: Emit, signal: AbortSignal) { return model(input, emit, signal); }
//   }

export { modelFailure, streamTextModel, type BridgeOptions, type StreamTextOptions, type StreamTextResult, type ToolsOf } from "./ai-sdk/stream-text.js";
export { readFiles, type FileBucket } from "./ai-sdk/files.js";
export { APPROVAL_OPTIONS, type Asking, type CallOf, type Memo, type Waiting } from "./ai-sdk/questions.js";
export { ASK_USER, toModelMessages, type ModelMessage } from "./ai-sdk/messages.js";
