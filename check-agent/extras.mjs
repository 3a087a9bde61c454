// check-agent's R-extras (docs/agent-protocol.md, "Data, sources and metadata"): every data part,
// source and metadata frame an agent sends, in any scenario, is of the shape the adapter keeps
// (crates/core/src/v2/extras/parts.rs): one that is not is skipped by the adapter, and the client never
// sees it. An agent that sends none says so (--no-extras: n/a); a run that saw none otherwise is
// incomplete (skip: give --extras-prompt), as a run without questions is.
import { show } from "./frames.mjs";
import { turnOn } from "./turns.mjs";

/** The adapter's bounds (crates/core/src/v2/extras/parts.rs), and the names and keys it writes itself. */
const MAX_NAME_CHARS = 64;
const MAX_ID_BYTES = 256;
const MAX_TEXT_BYTES = 16 * 1024;
const MAX_MEDIA_TYPE_BYTES = 255;
const MAX_DEPTH = 64;
const RESERVED_NAMES = ["status", "question", "answer"];
const RESERVED_KEYS = ["turnId", "createdAt", "durationMs", "toolCalls", "toolErrors", "stopped", "usage", "model", "error", "ref", "siblings"];

export const EXTRA_TYPES = ["message.part.data", "message.part.source", "message.metadata"];

const bytes = (s) => new TextEncoder().encode(s).length;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const depth = (v) => (v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
const id = (v) => typeof v === "string" && v !== "" && bytes(v) <= MAX_ID_BYTES;
const optionalText = (v, max) => v === undefined || (typeof v === "string" && bytes(v) <= max);

/** Why the adapter would skip `frame` (one of EXTRA_TYPES), or null. */
export function extraFault(frame) {
  if (typeof frame.turnId !== "string") return "no turnId";
  switch (frame.type) {
    case "message.part.data":
      if (typeof frame.name !== "string" || !/^[A-Za-z0-9_.:-]+$/.test(frame.name) || frame.name.length > MAX_NAME_CHARS) return "a name that is not 1 to 64 of [A-Za-z0-9_.:-]";
      if (RESERVED_NAMES.includes(frame.name)) return `the name ${show(frame.name)}, one the adapter writes itself`;
      if (frame.id !== undefined && !id(frame.id)) return "an id that is not a string of 1 to 256 bytes";
      if (!("data" in frame)) return "no data";
      if (depth(frame.data) > MAX_DEPTH) return "data nested deeper than 64 levels";
      if (frame.transient !== undefined && typeof frame.transient !== "boolean") return "a transient that is not a boolean";
      return null;
    case "message.part.source": {
      if (!id(frame.sourceId)) return "a sourceId that is not a string of 1 to 256 bytes";
      if (!optionalText(frame.title, MAX_TEXT_BYTES)) return "a title that is not a string of at most 16 KiB";
      if (frame.url !== undefined) {
        const web = typeof frame.url === "string" && /^https?:\/\//i.test(frame.url) && bytes(frame.url) <= MAX_TEXT_BYTES;
        return web ? null : "a url that is not an http(s) URL of at most 16 KiB";
      }
      if (typeof frame.mediaType !== "string" || frame.mediaType === "" || bytes(frame.mediaType) > MAX_MEDIA_TYPE_BYTES) return "neither a url nor a mediaType of 1 to 255 bytes";
      if (frame.title === undefined) return "a document without a title";
      return optionalText(frame.filename, MAX_MEDIA_TYPE_BYTES) ? null : "a filename that is not a string of at most 255 bytes";
    }
    case "message.metadata": {
      const { metadata } = frame;
      if (!isObject(metadata)) return "metadata that is not a JSON object";
      if (bytes(JSON.stringify(metadata)) > MAX_TEXT_BYTES || depth(metadata) > MAX_DEPTH) return "metadata over 16 KiB or nested deeper than 64 levels";
      const taken = RESERVED_KEYS.find((key) => Object.hasOwn(metadata, key));
      return taken ? `metadata naming ${show(taken)}, a key the adapter writes itself` : null;
    }
    default:
      return null;
  }
}

/** The --extras-prompt's turn, when one is given: a session of its own. */
export async function extrasTurn(ctx) {
  if (!ctx.prompts.extras) return;
  const conn = await ctx.join("extras");
  await turnOn(ctx, conn, "extras", ctx.prompts.extras, "check-extras", {}, "the --extras-prompt");
  conn.close();
}

/** R-extras over every frame every socket of the run received. */
export function judgeExtras(ctx, conns) {
  const extras = conns.flatMap((c) => c.frames).filter((f) => EXTRA_TYPES.includes(f.type));
  if (extras.length === 0) {
    if (ctx.declares.extras === false) return ctx.judge("R-extras", "n/a", { arrived: "the agent sends no data part, source or metadata (--no-extras)" });
    const why = ctx.prompts.extras ? "no data part, source or metadata, the --extras-prompt's turn included" : "no data part, source or metadata in any scenario (no --extras-prompt given)";
    return ctx.judge("R-extras", "skip", { arrived: why, give: "--extras-prompt (or --no-extras if your agent sends none)" });
  }
  for (const frame of extras) {
    const fault = extraFault(frame);
    if (fault) return ctx.judge("R-extras", "fail", { arrived: `${fault}: ${show(frame)}` });
  }
  ctx.judge("R-extras", "pass");
}
