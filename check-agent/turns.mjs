// check-agent's turn scenarios. `basics`: the first socket (init, protocol, the ping's pong, an
// unknown frame and field, two short turns, the history on a later socket). `watch`: a long turn watched by sockets
// that join mid-tool and mid-text (their init's snapshot, continued exactly), a second prompt
// during it (no second turn, `busy` on that socket only), every event on every socket.
import { endOn, judgeBusy, judgeTurn, judgeUsageKept } from "./turn_end.mjs";
import { judgePong } from "./pong.mjs";
import { applyFrames, difference, finalizeOf, finishOf, LONGER, liveTurn, messageIn, ofTurn, show, sleep, snapshotTurn, WAIT } from "./frames.mjs";

/** Waits for the `message.create` of a prompt just sent on `conn` (from index `from`); judges
 * R-turn when none comes. */
export async function created(ctx, conn, from, what) {
  // Once a prompt went unanswered for the whole wait, the agent starts no turns: later prompts
  // get a short wait (the rules they would drive are left unchecked, R-turn failed).
  const ms = ctx.turnless ? WAIT.settle : WAIT.create;
  const create = await conn.waitFor((f) => f.type === "message.create", ms, from);
  if (!create) {
    if (!conn.closed) ctx.turnless = true;
    ctx.judge("R-turn", "fail", { arrived: `${what}: ${conn.closed ? `the socket closed (${conn.closed.code})` : `no message.create within ${ms / 1000} s`}` });
  } else ctx.judge("R-turn", "pass");
  return create;
}

/** A whole turn on `conn` (of session `label`) for a prompt of `content` (`extra`: more fields, such
 * as messageId and branch): resolves to `{ create, text }` once it ended and the agent said
 * `complete` (its text whatever turnId its deltas carry: R-turn-id's to judge), or null when no
 * turn started (R-turn judged). `what` says which prompt in a report line. */
export async function turnOn(ctx, conn, label, content, requestId, extra, what) {
  const from = conn.frames.length;
  ctx.prompt(conn, content, requestId, extra);
  const create = await created(ctx, conn, from, what);
  if (!create) return null;
  ctx.saw(label, create.turnId);
  const start = conn.frames.indexOf(create);
  const done = await endOn(conn, create.turnId, WAIT.turn, start);
  const upTo = done ? conn.frames.indexOf(done) : conn.frames.length;
  await conn.waitFor((f) => f.type === "complete", WAIT.settle, upTo);
  const text = conn.frames.slice(start, upTo).filter((f) => f.type === "message.part.text-delta").map((f) => f.delta).join("");
  return { create, text };
}

/** R-protocol: `init` says protocol 1 to 7; from 4, the upgrade's answer says the same in
 * `X-Agent-Protocol` (the adapter reads it there before it sends a regenerate or an edit), and an
 * agent that says a protocol there says the same in `init`. */
function judgeProtocol(ctx, protocol, header) {
  const said = header === null ? "no X-Agent-Protocol" : `X-Agent-Protocol: ${header}`;
  const arrived = `protocol ${show(protocol)} in init, ${said} on the upgrade's answer`;
  const known = [1, 2, 3, 4, 5, 6, 7].includes(protocol);
  const agrees = protocol >= 4 ? header?.trim() === String(protocol) : header === null || header.trim() === String(protocol);
  ctx.judge("R-protocol", known && agrees ? "pass" : "fail", { arrived });
}

/** The first socket: init, an unknown frame type and field, two short turns, then the history. */
export async function basics(ctx, first) {
  ctx.judge("R-init", first.init ? "pass" : "fail", {
    arrived: first.init === null ? `the first frame was ${show(first.frames[0]?.type)}, not init` : `no frame within ${WAIT.init / 1000} s of the socket opening`,
  });
  if (first.init) judgeProtocol(ctx, first.init.protocol, first.protocolHeader);
  await judgePong(ctx, first);
  first.send({ type: "check-agent.unknown", detail: "an unknown frame type: to be ignored" });
  const from = first.frames.length;
  ctx.prompt(first, ctx.prompts.short, "check-b1", { checkAgentExtra: "an unknown field: to be ignored" });
  const create = await first.waitFor((f) => f.type === "message.create", WAIT.create, from);
  if (!create) {
    if (first.closed) return ctx.judge("R-tolerant", "fail", { arrived: `the socket closed (${first.closed.code}) after an unknown frame type and a prompt with an unknown field` });
    ctx.judge("R-turn", "fail", { arrived: `the --prompt after an unknown frame: no message.create within ${WAIT.create / 1000} s` });
    return ctx.judge("R-tolerant", "skip", { arrived: "no turn started (R-turn)" });
  }
  ctx.judge("R-turn", "pass");
  ctx.judge("R-tolerant", "pass");
  ctx.judge("R-echo", create.requestId === "check-b1" ? "pass" : "fail", { arrived: `requestId ${show(create.requestId)}` });
  ctx.saw("basics", create.turnId);
  const finalize = await judgeTurn(ctx, first, create, "the --prompt");

  // An abort while no turn runs is ignored (R-abort-other): the next turn runs to its end.
  first.send({ type: "abort" });
  await sleep(WAIT.settle);
  const again = first.frames.length;
  ctx.prompt(first, ctx.prompts.short, "check-b2");
  const second = await created(ctx, first, again, "a second --prompt on the same socket");
  if (second) {
    ctx.saw("basics", second.turnId);
    const end = await judgeTurn(ctx, first, second, "the second --prompt");
    if (end?.reason === "canceled") {
      ctx.judge("R-abort-other", "fail", { arrived: `an abort sent while no turn ran, then a --prompt: its turn ${second.turnId} was canceled` });
    }
  }
  first.close();

  const later = await ctx.join("basics");
  if (!later.init) return ctx.judge("R-history", "skip", { arrived: "no init to read the history from (R-init)" });
  const finished = (id) => finishOf(messageIn(later.init, id)) !== undefined;
  const missing = [create.turnId, second?.turnId].filter((id) => id && !finished(id));
  ctx.judge("R-history", missing.length ? "fail" : "pass", { arrived: `a later socket's init without the finished message(s) ${missing.join(", ")}` });
  judgeUsageKept(ctx, finalize, finishOf(messageIn(later.init, create.turnId)));
  later.close();
}

/** A long turn watched by sockets joining mid-tool and mid-text, and prompted again during it. */
export async function watch(ctx) {
  const a = await ctx.join("watch");
  ctx.prompt(a, ctx.prompts.long, "check-w1");
  const create = await created(ctx, a, a.joined, "the --long-prompt");
  if (!create) return;
  const turnId = create.turnId;
  ctx.saw("watch", turnId);
  const start = a.frames.indexOf(create);
  const mine = ofTurn(turnId);
  const isTool = (f) => mine(f) && f.type === "message.part.tool-update" && (f.status === "pending" || f.status === "running");
  // Any text after the create (even under a wrong turnId: R-turn-id's to judge) is mid-text.
  const isText = (f) => f.type === "message.part.text-delta";
  const joins = [];
  const join = async (kind) => joins.push({ kind, before: a.frames.length, conn: await ctx.join("watch") });
  let next = await a.waitFor((f) => isTool(f) || isText(f) || finalizeOf(turnId)(f), WAIT.turn, start);
  if (next && isTool(next)) {
    await join("mid-tool");
    next = await a.waitFor((f) => isText(f) || finalizeOf(turnId)(f), WAIT.turn, a.frames.indexOf(next));
  }
  if (next && isText(next)) await join("mid-text");
  if (!joins.length) await join("after the turn's first event");

  await secondPrompt(ctx, a, joins, turnId);
  await judgeTurn(ctx, a, create, "the --long-prompt");
  await sleep(WAIT.settle);

  const whole = liveTurn(a.frames.slice(start), turnId);
  const end = a.frames.findIndex(finalizeOf(turnId));
  const stray = a.frames.slice(start, end === -1 ? undefined : end).some((f) => f.type.startsWith("message.part.") && f.turnId !== turnId);
  for (const { kind, before, conn } of joins) {
    if (a.frames.slice(0, before).some(finalizeOf(turnId)) || endedBefore(a, conn, turnId)) {
      ctx.judge("R-init-in-flight", "skip", { arrived: `the turn ended before a socket joined ${kind}`, give: LONGER });
      continue;
    }
    judgeBroadcast(ctx, a, conn, turnId, `a socket that joined ${kind}`);
    if (stray) ctx.judge("R-init-continuity", "n/a", { arrived: "the turn's events carried another turnId (R-turn-id)" });
    else judgeSnapshot(ctx, a, conn, { kind, before, turnId, whole });
  }
  if (joins.length && !joins.some((j) => j.kind === "mid-tool")) ctx.note("R-init-continuity", "the --long-prompt's turn called no tool before its text: init was checked mid-text only");
  a.close();
  for (const { conn } of joins) conn.close();
}

/** Whether `turnId` had ended when `conn` joined: `conn`'s init lists it finished, with the whole
 * text the watcher `a` received before its finalize. A join is asynchronous, so a short
 * --long-prompt's turn can end between the join's start and its init: a race of the run, not the
 * agent's fault. An agent that lists a turn still running as finished is not excused: its listing
 * cannot hold the text the turn had yet to say. */
function endedBefore(a, conn, turnId) {
  const listed = messageIn(conn.init, turnId);
  if (!finishOf(listed) || !a.frames.some(finalizeOf(turnId))) return false;
  const said = a.frames.filter((f) => f.type === "message.part.text-delta" && f.turnId === turnId).map((f) => f.delta).join("");
  const kept = listed.parts.filter((p) => p?.type === "text").map((p) => p.text ?? "").join("");
  return said !== "" && kept === said;
}

/** A prompt during the turn from a socket that joined it: no second turn (R-one-turn), an error
 * (R-busy, R-error-code) on that socket only (R-error-scope). */
async function secondPrompt(ctx, a, joins, turnId) {
  const b = joins.at(-1).conn;
  const others = [a, ...joins.slice(0, -1).map((j) => j.conn)];
  const marks = others.map((c) => c.frames.length);
  // Ended as either socket has it: each reads its frames on its own, so one may hold the turn's
  // finalize while the other does not yet.
  if ([a, b].some((c) => c.frames.some(finalizeOf(turnId)))) {
    const why = { arrived: "the --long-prompt's turn ended before a second prompt could be sent", give: LONGER };
    return (ctx.judge("R-one-turn", "skip", why), ctx.judge("R-error-scope", "skip", why));
  }
  const from = b.frames.length;
  ctx.prompt(b, ctx.prompts.short, "check-w2");
  const reply = await b.waitFor((f) => f.type === "error" || (f.type === "message.create" && f.turnId !== turnId), WAIT.reply, from);
  await sleep(WAIT.settle);
  const isSecond = (f) => f.type === "message.create" && f.turnId !== turnId && f.requestId !== "check-w1";
  const seen = [b, ...others].find((c) => c.frames.some(isSecond));
  const second = seen?.frames.find(isSecond);
  if (second) {
    // The agent's frames reach each socket in the order it sent them: the first turn ended before
    // the second began if its finalize came first on the socket that has the second's create.
    const endedFirst = seen.frames.findIndex(finalizeOf(turnId));
    if ((endedFirst !== -1 && endedFirst < seen.frames.indexOf(second)) || endedBefore(a, b, turnId)) {
      ctx.judge("R-one-turn", "skip", { arrived: "the --long-prompt's turn ended before the second prompt reached the agent", give: LONGER });
    } else ctx.judge("R-one-turn", "fail", { arrived: `a prompt sent while ${turnId} ran started ${second.turnId}: ${show(second)}` });
  } else ctx.judge("R-one-turn", "pass");
  const busy = reply?.type === "error" ? reply : null;
  if (busy || !second) judgeBusy(ctx, busy, "during the turn");
  const leaked = others.flatMap((c, i) => c.since(marks[i], (f) => f.type === "error"));
  if (busy || leaked.length) {
    ctx.judge("R-error-scope", leaked.length ? "fail" : "pass", { arrived: `the error for another socket's prompt arrived here too: ${show(leaked[0])}` });
  }
}

/** R-broadcast: a socket that joined the turn got its later events, its finalize and `complete`. */
function judgeBroadcast(ctx, a, conn, turnId, who) {
  const got = conn.since(conn.joined, ofTurn(turnId));
  const ended = a.frames.some(finalizeOf(turnId));
  if (!got.length) return ctx.judge("R-broadcast", "fail", { arrived: `${who} got none of the turn's events` });
  if (ended && !got.some(finalizeOf(turnId))) return ctx.judge("R-broadcast", "fail", { arrived: `${who} got no message.finalize of ${turnId}` });
  const completed = a.frames.some((f) => f.type === "complete");
  if (completed && !conn.since(conn.joined).some((f) => f.type === "complete")) return ctx.judge("R-broadcast", "fail", { arrived: `${who} got no complete` });
  ctx.judge("R-broadcast", "pass");
}

/** R-init-in-flight and R-init-continuity for a socket that joined the turn: its init lists the
 * turn (no finish part), holding all the first socket had seen before the join, and the snapshot
 * and the events after it make the whole turn. */
function judgeSnapshot(ctx, a, conn, { kind, before, turnId, whole }) {
  if (!conn.init) return ctx.judge("R-init-continuity", "n/a", { arrived: "no init (R-init)" });
  const message = messageIn(conn.init, turnId);
  if (!message || finishOf(message)) {
    ctx.judge("R-init-in-flight", "fail", { arrived: `joined ${kind}: init ${message ? `lists ${turnId} finished` : `without the message ${turnId}`}` });
    return ctx.judge("R-init-continuity", "n/a", { arrived: "no turn in flight in init (R-init-in-flight)" });
  }
  ctx.judge("R-init-in-flight", "pass");
  const later = conn.since(conn.joined);
  if (!later.some(ofTurn(turnId))) return ctx.judge("R-init-continuity", "n/a", { arrived: `the socket that joined ${kind} got no event after its init (R-broadcast)` });
  const snapshot = snapshotTurn(message);
  const seen = liveTurn(a.frames.slice(0, before), turnId);
  const lost = [...seen.tools.keys()].filter((callId) => !snapshot.tools.has(callId));
  if (lost.length) return ctx.judge("R-init-continuity", "fail", { arrived: `joined ${kind}: init's turn lacks tool ${lost.join(", ")}, already sent before the socket joined` });
  if (!snapshot.text.startsWith(seen.text)) return ctx.judge("R-init-continuity", "fail", { arrived: `joined ${kind}: init's text ${show(snapshot.text)} lacks ${show(seen.text)}, already sent before the socket joined` });
  const problem = difference(applyFrames(snapshot, later, turnId), whole);
  ctx.judge("R-init-continuity", problem ? "fail" : "pass", { arrived: `joined ${kind}: init's turn and the events after it give ${problem}` });
}
