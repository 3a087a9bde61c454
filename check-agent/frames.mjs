// What check-agent's scenarios share: how long each wait lasts, how a turn's frames are told
// apart, and how a frame is shown in a report line.

/** How long each wait lasts: an agent on a real model may take seconds to start a turn. */
export const WAIT = { init: 3000, create: 30_000, turn: 180_000, reply: 5000, settle: 600 };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A frame of a turn that carries its turnId: a part update or the finalize. */
export const isTurnEvent = (f) => f.type.startsWith("message.part.") || f.type === "message.finalize";

/** Matches the turn events of `turnId`. */
export const ofTurn = (turnId) => (f) => isTurnEvent(f) && f.turnId === turnId;

/** Matches the tool updates of `turnId`. */
export const toolOfTurn = (turnId) => (f) => f.type === "message.part.tool-update" && f.turnId === turnId;

/** A value as a report shows it: JSON, cut at 160 characters. */
export const show = (value) => (value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 160));
