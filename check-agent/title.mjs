// check-agent's R-title (docs/agent-protocol.md, "title"; protocol 7, a MAY): every `title` an
// agent sends, in any scenario, is one the adapter keeps (a string of 1 to 200 characters once
// trimmed, crates/core/src/v2/title.rs) and comes while a turn of its socket runs,
// before that turn's `message.finalize`, where the adapter still reads the turn's frames. An agent
// that sends none leaves the rule n/a: the user's list keeps the first message's title.
import { show } from "./frames.mjs";

/** The longest title the adapter keeps, in characters once trimmed (`MAX_TITLE_CHARS`). */
const MAX_TITLE_CHARS = 200;

/** Why the adapter would not keep `frame`'s title, or null. */
export function titleFault(frame) {
  if (typeof frame.title !== "string") return "its title is not a string";
  const length = [...frame.title.trim()].length;
  if (length === 0 || length > MAX_TITLE_CHARS) return `its title is ${length} characters once trimmed, not 1 to ${MAX_TITLE_CHARS}`;
  return null;
}

/** R-title over every socket of the run: each title's shape, and its place in its socket's frames
 * (after a `message.finalize` and before the next `message.create`, no stream reads it). */
export function judgeTitles(ctx, conns) {
  let seen = 0;
  for (const conn of conns) {
    let ended = false;
    for (const frame of conn.frames) {
      if (frame.type === "message.create") ended = false;
      else if (frame.type === "message.finalize") ended = true;
      else if (frame.type === "title") {
        seen += 1;
        const fault = titleFault(frame) ?? (ended ? "it came after its turn's message.finalize, when no stream reads it" : null);
        if (fault) return ctx.judge("R-title", "fail", { arrived: `${fault}: ${show(frame)}` });
      }
    }
  }
  if (seen === 0) return ctx.judge("R-title", "n/a", { arrived: "the agent sent no title in any scenario (the first message's title stays)" });
  ctx.judge("R-title", "pass");
}
