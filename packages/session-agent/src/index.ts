// A SessionAgent Durable Object for the AI SDK chat adapter, as a library: extend `SessionAgent`
// and give it your model (`respond`); the agent contract (docs/agent-protocol.md) is kept for you.

export { SessionAgent } from "./session-agent.js";
export type { Emit, ModelInput, ModelResult, Respond } from "./model.js";
export type { Attachment, FinishReason, Message, Part, Question, ToolStatus, Usage } from "./protocol.js";
export { PROTOCOL, PROTOCOL_HEADER } from "./protocol.js";
