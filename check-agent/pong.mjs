// check-agent's R-pong (docs/agent-protocol.md, "Frames", liveness): the adapter's ping on an idle
// socket is answered with the pong, byte for byte (the runtime's WebSocket auto-response matches and
// sends whole strings), on that socket.
import { PING, PONG, WAIT, show } from "./frames.mjs";

/** Sends the ping on `conn`, idle, and judges R-pong by what comes back within WAIT.reply. */
export async function judgePong(ctx, conn) {
  const from = conn.frames.length;
  conn.sendText(PING);
  const pong = await conn.waitFor((f) => f.type === "pong", WAIT.reply, from);
  if (!pong) {
    const other = conn.frames.slice(from).map((f) => f.type);
    const arrived = conn.closed ? `the socket closed (${conn.closed.code}) after a ping` : `no pong within ${WAIT.reply / 1000} s of a ping${other.length ? `; came: ${show(other)}` : ""}`;
    return ctx.judge("R-pong", "fail", { arrived });
  }
  const text = conn.texts[conn.frames.indexOf(pong)];
  ctx.judge("R-pong", text === PONG ? "pass" : "fail", { arrived: `a pong of other bytes: ${show(text)}` });
}
