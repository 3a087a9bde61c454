// The reference TypeScript agent driven straight over check-agent's probe socket, as the adapter
// would (tests/fixtures/agents/recording.ts): how many messages a session holds (the test agent's
// `test.fill`), and a prompt's turn run to its end. Shared by agent_store.test.mjs and
// agent_limits.test.mjs.
import assert from "node:assert/strict";

/** How many messages the session holds, after the test agent's `test.fill` adds `add` of them. */
export async function stored(conn, add = 0) {
  const from = conn.frames.length;
  conn.send({ type: "test.fill", count: add });
  return (await conn.waitFor((f) => f.type === "test.filled", 20_000, from))?.stored;
}

/** A prompt on `conn`: its turn run to its end (its turnId and its finalize), or the error it got. */
export async function prompt(conn, content, messageId, branch) {
  const from = conn.frames.length;
  conn.send({ type: "prompt", content, requestId: `r-${messageId}-${from}`, onDisconnect: "abort", messageId, branch });
  const answer = await conn.waitFor((f) => f.type === "message.create" || f.type === "error", 10_000, from);
  if (answer?.type !== "message.create") return { error: answer };
  const at = conn.frames.indexOf(answer);
  const complete = await conn.waitFor((f) => f.type === "complete", 10_000, at);
  assert.ok(complete, "the turn ends");
  const finalize = conn.frames.slice(at).find((f) => f.type === "message.finalize" && f.turnId === answer.turnId);
  return { turnId: answer.turnId, finalize };
}
