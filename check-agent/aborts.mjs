// check-agent's abort scenarios. `aborts`: an abort naming another request is ignored
// (R-abort-other); one naming the turn's own request stops it, and so does one with no requestId
// from another socket, as the stop endpoint sends it (R-abort). `closes`: the socket of an
// abort-policy prompt cut without a close frame, or closed with one, stops the turn
// (R-close-abort); a detached turn runs on after its socket is cut (R-detach) and is in the
// history.
import { endOf, judgeAbort, judgeTurn } from "./turn_end.mjs";
import { created } from "./turns.mjs";
import { finalizeOf, finishOf, LONGER, messageIn, show, WAIT } from "./frames.mjs";
import { askHistory } from "./history.mjs";

export async function aborts(ctx) {
  const a = await ctx.join("abort");
  const b = await ctx.join("abort");

  // An abort for someone else's request, then the turn's own.
  let from = a.frames.length;
  ctx.prompt(a, ctx.prompts.long, "check-a1");
  const first = await created(ctx, a, from, "the --long-prompt");
  if (first) {
    ctx.saw("abort", first.turnId);
    const sentOther = Date.now();
    a.send({ type: "abort", requestId: "check-someone-else" });
    // An agent of protocol 5 answers a `history` frame in its turn: once that answer is here, what
    // the abort made the agent send is here too, however loaded the machine (a window of time
    // alone passes an agent that cancels on any abort but reads it late). Then the window.
    if (a.init?.protocol >= 5) await askHistory(a, { limit: 1 });
    const early = await a.waitFor(finalizeOf(first.turnId), WAIT.quiet, a.frames.indexOf(first));
    if (early?.reason === "canceled") ctx.judge("R-abort-other", "fail", { arrived: `the turn was canceled ${a.arrival(early) - sentOther} ms after an abort naming another request` });
    else if (early) ctx.judge("R-abort-other", "skip", { arrived: `the turn ended within ${WAIT.quiet / 1000} s of its message.create`, give: LONGER });
    else ctx.judge("R-abort-other", "pass");
    if (!early) {
      const sent = Date.now();
      a.send({ type: "abort", requestId: "check-a1" });
      await judgeAbort(ctx, a, first.turnId, sent, "an abort with the prompt's requestId");
    } else ctx.judge("R-abort", "skip", { arrived: "the --long-prompt's turn ended before it could be aborted", give: LONGER });
    await judgeTurn(ctx, a, first, "an aborted turn");
  }

  // An abort without requestId, from another socket (the stop endpoint's).
  from = a.frames.length;
  ctx.prompt(a, ctx.prompts.long, "check-a2");
  const second = await created(ctx, a, from, "the --long-prompt");
  if (second) {
    ctx.saw("abort", second.turnId);
    const sent = Date.now();
    b.send({ type: "abort" });
    await judgeAbort(ctx, a, second.turnId, sent, "an abort without requestId, from another socket", b);
    await judgeTurn(ctx, a, second, "a turn stopped by an abort without requestId");
  }
  a.close();
  b.close();
}

export async function closes(ctx) {
  const watcher = await ctx.join("close");
  await cutMidTurn(ctx, watcher, "cut", "check-c1");
  await cutMidTurn(ctx, watcher, "close", "check-c2");

  // A detached turn: its socket cut, the turn runs on to its end, and is kept.
  const c = await ctx.join("close");
  const from = c.frames.length;
  ctx.prompt(c, ctx.prompts.long, "check-c3", { onDisconnect: "detach" });
  const create = await created(ctx, c, from, "a detached --long-prompt");
  if (!create) return watcher.close();
  ctx.saw("close", create.turnId);
  const cutAt = Date.now();
  c.terminate();
  const end = await endOf(ctx, watcher, "close", create.turnId, WAIT.turn);
  if (end && end.reason === null) ctx.judge("R-detach", "skip", { arrived: "the detached turn ended with no message.finalize (R-finalize)" });
  else if (!end) ctx.judge("R-detach", "fail", { arrived: `the detached turn ${create.turnId} did not end within ${WAIT.turn / 1000} s of its socket's cut` });
  else if (end.reason === "end_turn") ctx.judge("R-detach", "pass");
  else ctx.judge("R-detach", "fail", { arrived: `the detached turn ended ${show(end.reason)} ${end.at - cutAt} ms after its socket was cut${end.via ? ` (${end.via})` : ""}` });
  if (end) {
    const later = await ctx.join("close");
    if (later.init) {
      const kept = finishOf(messageIn(later.init, create.turnId)) !== undefined;
      ctx.judge("R-history", kept ? "pass" : "fail", { arrived: `a later socket's init without the detached turn ${create.turnId}, finished` });
    }
    later.close();
  }
  watcher.close();
}

/** A long turn whose prompting socket (policy `abort`) is cut (`how` "cut": no close frame, as
 * a lost connection) or closed (`how` "close": 1000, no abort frame first), watched by `watcher`. */
async function cutMidTurn(ctx, watcher, how, requestId) {
  const c = await ctx.join("close");
  const from = c.frames.length;
  ctx.prompt(c, ctx.prompts.long, requestId);
  const create = await created(ctx, c, from, "the --long-prompt");
  if (!create) return;
  ctx.saw("close", create.turnId);
  const at = Date.now();
  if (how === "cut") c.terminate();
  else c.close();
  const label = how === "cut" ? "its socket cut without a close frame" : "its socket closed (1000) with no abort";
  const end = await endOf(ctx, watcher, "close", create.turnId, WAIT.reply);
  if (end?.reason === null) ctx.judge("R-close-abort", "skip", { arrived: `${label}: the turn ended with no message.finalize (R-finalize)` });
  else if (end?.reason === "canceled") ctx.judge("R-close-abort", "pass");
  else if (end && end.at - at < WAIT.late) ctx.judge("R-close-abort", "skip", { arrived: `the turn ended ${show(end.reason)} ${end.at - at} ms after ${label}, too soon to tell`, give: LONGER });
  else ctx.judge("R-close-abort", "fail", { arrived: end ? `${label}: the turn ended ${show(end.reason)} ${end.at - at} ms later` : `${label}: the turn still ran ${WAIT.reply / 1000} s later` });
  if (!end) {
    watcher.send({ type: "abort" });
    await endOf(ctx, watcher, "close", create.turnId, WAIT.turn);
  }
}
