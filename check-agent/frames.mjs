// What check-agent's scenarios share: how long each wait lasts, how a turn's frames are told
// apart, what a turn looks like (its text, reasoning and tools) seen live or in an `init`, and how
// a frame is shown in a report line.

/** How long each wait lasts: an agent on a real model may take seconds to start a turn.
 * `late`: a turn of an agent older than protocol 5 that ends this long after an abort was sent is
 * taken to have ignored it (any sooner, and the abort may simply have crossed its end); a newer
 * agent's answer to a `history` frame sent after the abort tells instead (./turn_end.mjs). */
export const WAIT = { init: 3000, create: 30_000, turn: 180_000, reply: 5000, settle: 600, late: 500, quiet: 1000 };

/** The adapter's ping and the agent's pong, exactly these bytes (docs/agent-protocol.md, R-pong;
 * `PING` and `PONG` of crates/core/src/v2.rs). */
export const PING = '{"type":"ping"}';
export const PONG = '{"type":"pong"}';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A turn event (docs/agent-protocol.md): `message.create`, `message.part.*`, `message.metadata`
 * (protocol 6), `message.finalize` (not the legacy `message.updated`, a session frame). */
export const isTurnEvent = (f) => f.type === "message.create" || isTurnPart(f) || f.type === "message.finalize";

/** A turn event between a turn's `message.create` and its `message.finalize`: `message.part.*`, `message.metadata`. */
export const isTurnPart = (f) => f.type.startsWith("message.part.") || f.type === "message.metadata";

/** Matches the turn events of `turnId`. */
export const ofTurn = (turnId) => (f) => isTurnEvent(f) && f.turnId === turnId;

/** Matches the tool updates of `turnId`. */
export const toolOfTurn = (turnId) => (f) => f.type === "message.part.tool-update" && f.turnId === turnId;

/** Matches the finalize of `turnId`. */
export const finalizeOf = (turnId) => (f) => f.type === "message.finalize" && f.turnId === turnId;

/** What a skipped line asks for when the agent's turns end too soon to drive a rule. */
export const LONGER = "--long-prompt with a turn of at least 3 s";

/** The message `id` of an `init` (undefined when it lists none). */
export const messageIn = (init, id) => (init?.messages ?? []).find((m) => m?.id === id);

/** The `finish` part of an init's message: it is finished, and how (undefined while in flight). */
export const finishOf = (message) => message?.parts?.find((p) => p?.type === "finish");

/** A value as a report shows it: JSON, cut at 160 characters. */
export const show = (value) => (value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 160));

/** What a tool card shows of a call, compared between a snapshot and the live turn. */
const TOOL_FIELDS = ["status", "args", "result", "error"];

/** An empty turn: text and reasoning as strings, tools by callId, questions by questionId. */
const emptyTurn = () => ({ text: "", reasoning: "", tools: new Map(), questions: new Set() });

/** `state` after the live frames `frames` of `turnId` (and the questions among them). */
export function applyFrames(state, frames, turnId) {
  for (const f of frames) {
    if (f.type === "question") state.questions.add(f.questionId);
    if (!isTurnEvent(f) || f.turnId !== turnId) continue;
    if (f.type === "message.part.text-delta") state.text += f.delta ?? "";
    else if (f.type === "message.part.reasoning-delta") state.reasoning += f.delta ?? "";
    else if (f.type === "message.part.tool-update") {
      const tool = state.tools.get(f.callId) ?? { toolName: f.toolName };
      for (const key of TOOL_FIELDS) if (f[key] !== undefined) tool[key] = f[key];
      state.tools.set(f.callId, tool);
    }
  }
  return state;
}

/** The turn as the live frames `frames` show it. */
export const liveTurn = (frames, turnId) => applyFrames(emptyTurn(), frames, turnId);

/** The turn as an `init`'s message shows it (its parts so far). */
export function snapshotTurn(message) {
  const state = emptyTurn();
  for (const part of message?.parts ?? []) {
    if (part?.type === "text") state.text += part.text ?? "";
    else if (part?.type === "reasoning") state.reasoning += part.text ?? "";
    else if (part?.type === "tool-call") {
      const tool = { toolName: part.toolName };
      for (const key of TOOL_FIELDS) if (part[key] !== undefined) tool[key] = part[key];
      state.tools.set(part.callId, tool);
    } else if (part?.type === "question") state.questions.add(part.questionId);
  }
  return state;
}

/** Where two views of a turn differ, in words; null when they are the same. */
export function difference(rebuilt, whole) {
  if (rebuilt.text !== whole.text) return `text ${show(rebuilt.text)}, the turn's ${show(whole.text)}`;
  if (rebuilt.reasoning !== whole.reasoning) return `reasoning ${show(rebuilt.reasoning)}, the turn's ${show(whole.reasoning)}`;
  for (const [callId, tool] of whole.tools) {
    const other = rebuilt.tools.get(callId);
    if (!other) return `tool ${callId} missing`;
    const differs = ["toolName", ...TOOL_FIELDS].some((key) => JSON.stringify(other[key]) !== JSON.stringify(tool[key]));
    if (differs) return `tool ${callId} ${show(other)}, the turn's ${show(tool)}`;
  }
  for (const callId of rebuilt.tools.keys()) if (!whole.tools.has(callId)) return `tool ${callId} that the turn never had`;
  return null;
}
