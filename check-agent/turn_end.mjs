// How check-agent judges a turn once it has ended, on a socket that saw it from its
// `message.create`: one `message.finalize` (R-finalize), no event under another turn's id
// (R-turn-id), every tool closed (R-tool-end), `complete` after it and not before (R-complete).
import { askHistory } from "./history.mjs";
import { finalizeOf, finishOf, isTurnEvent, isTurnPart, LONGER, messageIn, ofTurn, show, sleep, toolOfTurn, WAIT } from "./frames.mjs";

/** The largest token count a client holds exactly (JavaScript's Number.MAX_SAFE_INTEGER). */
const MAX_TOKENS = Number.MAX_SAFE_INTEGER;
/** The longest model name the adapter keeps, in bytes (crates/core/src/v2/usage.rs). */
const MAX_MODEL_BYTES = 256;

/** R-usage (MAY): a finished turn's `usage` and `model`, when it reports them, are of the shape
 * the adapter keeps; a turn that reports neither leaves the rule unjudged (a skip, as a MAY). */
function judgeUsage(ctx, finalize) {
  const { usage, model } = finalize;
  if (usage === undefined && model === undefined) return;
  if (costWellFormed(finalize)) ctx.judge("R-usage", "pass");
  else ctx.judge("R-usage", "fail", { arrived: `usage ${show(usage)}, model ${show(model)}` });
}

/** Whether the `usage` and `model` of `finalize` are of the shape the adapter keeps. */
function costWellFormed({ usage, model }) {
  const count = (n) => n === undefined || (Number.isInteger(n) && n >= 0 && n <= MAX_TOKENS);
  const usageOk = usage === undefined || (usage !== null && typeof usage === "object" && !Array.isArray(usage) && count(usage.inputTokens) && count(usage.outputTokens) && (usage.inputTokens !== undefined || usage.outputTokens !== undefined));
  const modelOk = model === undefined || (typeof model === "string" && model !== "" && new TextEncoder().encode(model).length <= MAX_MODEL_BYTES);
  return usageOk && modelOk;
}

/** R-usage-history (MAY): the `finish` part `init` gives a finished turn keeps what its
 * `finalize` reported, `usage` and `model` alike. A part that keeps neither leaves the rule
 * unjudged (a skip, as a MAY); so does a turn that reported neither, or reported them garbled
 * (R-usage's to judge: the adapter dropped them). */
export function judgeUsageKept(ctx, finalize, part) {
  if (!finalize || (finalize.usage === undefined && finalize.model === undefined) || !costWellFormed(finalize)) return;
  if (!part || (part.usage === undefined && part.model === undefined)) return;
  const same = JSON.stringify(sorted(part.usage)) === JSON.stringify(sorted(finalize.usage)) && part.model === finalize.model;
  ctx.judge("R-usage-history", same ? "pass" : "fail", {
    arrived: `finalize of ${finalize.turnId}: usage ${show(finalize.usage)}, model ${show(finalize.model)}; its finish part in a later init: usage ${show(part.usage)}, model ${show(part.model)}`,
  });
}

/** `value` with its keys in order, so two objects compare by their fields alone. */
function sorted(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

/** The end of `turnId` on `conn` from index `from`: its finalize, or `complete` when none comes
 * (within `ms`). A `complete` just before the finalize (R-complete's to judge, not an end) is
 * passed over for the finalize that follows within WAIT.settle. */
export async function endOn(conn, turnId, ms, from) {
  const end = await conn.waitFor((f) => finalizeOf(turnId)(f) || f.type === "complete", ms, from);
  if (end?.type !== "complete") return end;
  return (await conn.waitFor(finalizeOf(turnId), WAIT.settle, conn.frames.indexOf(end))) ?? end;
}

/** Waits for the end of the turn `create` started, as `conn` sees it (its finalize, or
 * `complete` from an agent that sends none), judges it, and resolves to its finalize (or null).
 * `label` says which turn in a report line ("an aborted turn"). */
export async function judgeTurn(ctx, conn, create, label) {
  const turnId = create.turnId;
  const start = conn.frames.indexOf(create);
  const end = await conn.waitFor((f) => finalizeOf(turnId)(f) || f.type === "complete", WAIT.turn, start);
  await sleep(WAIT.settle);
  const finalizes = conn.since(start, finalizeOf(turnId));
  const finalize = finalizes[0] ?? null;
  const of = label ? ` (${label})` : "";
  if (finalizes.length === 1) ctx.judge("R-finalize", "pass");
  else if (finalizes.length === 0) {
    const after = end?.type === "complete" ? ": complete came, with no finalize before it" : conn.closed ? ": the socket closed" : ` in ${WAIT.turn / 1000} s`;
    ctx.judge("R-finalize", "fail", { arrived: `0 message.finalize of ${turnId}${of}${after}` });
  } else ctx.judge("R-finalize", "fail", { arrived: `${finalizes.length} message.finalize of ${turnId}${of}: ${finalizes.map((f) => show(f.reason)).join(", ")}` });
  if (finalize?.reason === "end_turn") judgeUsage(ctx, finalize);

  const until = finalize ? conn.frames.indexOf(finalize) : conn.frames.length;
  const during = conn.frames.slice(start, until);
  // A turn event under another id is stray, unless that id had a create of its own (a second
  // turn: R-one-turn's to judge).
  const created = new Set(during.filter((f) => f.type === "message.create").map((f) => f.turnId));
  const stray = during.filter((f) => isTurnEvent(f) && f.turnId !== turnId && !created.has(f.turnId));
  if (stray.length) ctx.judge("R-turn-id", "fail", { arrived: `${stray.length} turn event(s) during ${turnId}${of} with another turnId, e.g. ${show(stray[0])}` });
  else ctx.judge("R-turn-id", "pass");

  if (finalize) {
    const tools = new Map();
    for (const f of during.filter(toolOfTurn(turnId))) tools.set(f.callId, f.status);
    const open = [...tools].filter(([, status]) => status !== "completed" && status !== "error");
    ctx.judge("R-tool-end", open.length ? "fail" : "pass", { arrived: `at the finalize of ${turnId}${of}, tool(s) left ${open.map(([id, s]) => `${id}: ${s}`).join(", ")}` });
    const early = during.find((f) => f.type === "complete");
    const complete = await conn.waitFor((f) => f.type === "complete", WAIT.reply, until);
    if (early) ctx.judge("R-complete", "fail", { arrived: `complete while ${turnId}${of} ran, before its finalize` });
    else ctx.judge("R-complete", complete ? "pass" : "fail", { arrived: `no complete within ${WAIT.reply / 1000} s of the finalize of ${turnId}${of}` });
  }
  return finalize;
}

/** Judges the answer to a prompt sent `during` a turn that started no second turn: an `error`
 * (R-busy) with `code: "busy"` (R-error-code), or null when none came within WAIT.reply. */
export function judgeBusy(ctx, reply, during) {
  if (!reply) return ctx.judge("R-busy", "fail", { arrived: `no error within ${WAIT.reply / 1000} s for a prompt sent ${during}` });
  ctx.judge("R-busy", "pass");
  ctx.judge("R-error-code", reply.code === "busy" ? "pass" : "fail", { arrived: `the busy error ${show(reply)}` });
}

/** Judges a turn's reaction to an abort sent at `sentAt` on `via` (`label` says which abort),
 * seen on `conn`: finalize `canceled`, then nothing more of the turn (R-abort). A turn that ended
 * some other way too soon after the abort to tell is a skip, with the option that would tell. Too
 * soon: for an agent of protocol 5, before it answered a `history` frame sent after the abort on
 * the same socket (once that answer is here the agent has read the abort, however loaded the
 * machine); for an older agent, within WAIT.late. */
export async function judgeAbort(ctx, conn, turnId, sentAt, label, via = conn) {
  const from = conn.frames.length;
  const heard = via.init?.protocol >= 5 ? askHistory(via, { limit: 1 }).then(() => Date.now()) : null;
  const end = await endOn(conn, turnId, WAIT.reply, from);
  const heardAt = heard ? await heard : sentAt + WAIT.late;
  const fin = conn.frames.find(finalizeOf(turnId)) ?? null;
  if (!fin && end) {
    return ctx.judge("R-abort", "skip", { arrived: `${label}: the turn ended with complete and no message.finalize (R-finalize)` });
  }
  if (!fin) {
    const last = conn.frames.filter((f) => f.turnId === turnId).at(-1);
    return ctx.judge("R-abort", "fail", { arrived: `${label}: no finalize within ${WAIT.reply / 1000} s${last ? `; the turn went on (${show(last.type)})` : ""}` });
  }
  const after = conn.arrival(fin) - sentAt;
  if (fin.reason !== "canceled") {
    if (conn.arrival(fin) <= heardAt) {
      return ctx.judge("R-abort", "skip", {
        arrived: `${label}: the turn ended ${show(fin.reason)} ${Math.max(after, 0)} ms after the abort was sent, too soon to tell whether it heard it`,
        give: LONGER,
      });
    }
    const more = conn.frames.slice(conn.frames.indexOf(fin)).filter((f) => isTurnPart(f) && f.turnId === turnId);
    return ctx.judge("R-abort", "fail", { arrived: `${label}: finalize ${show(fin.reason)} ${after} ms after the abort, then ${more.length} event(s)` });
  }
  const at = conn.frames.indexOf(fin);
  await sleep(WAIT.quiet);
  const more = conn.since(at + 1, (f) => isTurnPart(f) && f.turnId === turnId);
  ctx.judge("R-abort", more.length ? "fail" : "pass", { arrived: `${label}: finalize "canceled", then ${more.length} event(s) of the turn, e.g. ${show(more[0])}` });
}

/** The end of `turnId` in `session`: its finalize on `watcher` when the watcher hears the turn,
 * else (an agent that does not broadcast) the turn finished in the init of new sockets, polled.
 * Resolves to { reason, at, via? } (`reason` null: `complete` came with no finalize) or null
 * after `ms`. */
export async function endOf(ctx, watcher, session, turnId, ms) {
  const deadline = Date.now() + ms;
  const create = await watcher.waitFor(ofTurn(turnId), WAIT.settle);
  if (create) {
    // `complete` without a finalize ends the turn too, its reason unknown (R-finalize's to judge).
    const end = await endOn(watcher, turnId, ms, watcher.frames.indexOf(create));
    return end && { reason: end.type === "complete" ? null : end.reason, at: watcher.arrival(end) };
  }
  while (Date.now() < deadline) {
    const fin = watcher.frames.find(finalizeOf(turnId));
    if (fin) return { reason: fin.reason, at: watcher.arrival(fin) };
    const probe = await ctx.join(session, { quiet: true });
    probe.close();
    const finish = finishOf(messageIn(probe.init, turnId));
    if (finish) return { reason: finish.reason, at: Date.now(), via: "seen in a later socket's init" };
    if (!probe.init) return null;
    await sleep(250);
  }
  return null;
}
