// check-agent's checks: drives an agent over its WebSocket exactly as the adapter does, through the
// scenarios of docs/agent-protocol.md, and judges each rule of the contract (R-…) pass, fail or
// skip, with what was expected, what arrived, and what a chat client sees because of it.
//
// `checkAgent({ connect, prompts })`: `connect(session)` opens a socket to the agent of `session`
// (a `ws` WebSocket, not yet open); `prompts` are the texts sent as prompts: `short` (a turn that
// ends), `long` (a turn that runs for a few seconds, to abort), `ask` (optional: a turn that asks
// a question), `approve` (optional: a turn that asks before it runs a tool call). Resolves to
// { results, mustFailed }.
import { isTurnEvent, ofTurn, show, sleep, WAIT } from "./frames.mjs";
import { checkQuestions } from "./questions.mjs";
import { RULES } from "./rules.mjs";

/** One socket, with every frame it received (parsed) and the raw text of those that did not
 * parse. `Conn.open(ws)` resolves once the socket is open; `waitFor` waits for a frame. */
export class Conn {
  constructor(ws) {
    this.ws = ws;
    this.frames = [];
    this.bad = [];
    this.closed = null;
    this.waiters = new Set();
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = String(data);
      let frame;
      try {
        frame = JSON.parse(text);
      } catch {
        frame = undefined;
      }
      if (typeof frame !== "object" || frame === null || Array.isArray(frame) || typeof frame.type !== "string") this.bad.push(text.slice(0, 200));
      else this.frames.push(frame);
      this.wake();
    });
    ws.on("close", (code) => {
      this.closed = { code };
      this.wake();
    });
    ws.on("error", () => {});
  }

  static open(ws) {
    return new Promise((resolve, reject) => {
      const conn = new Conn(ws);
      ws.once("open", () => resolve(conn));
      ws.once("unexpected-response", (_req, res) => reject(new Error(`the upgrade was answered ${res.statusCode}`)));
      ws.once("error", reject);
    });
  }

  wake() {
    for (const waiter of this.waiters) waiter();
  }

  send(frame) {
    this.ws.send(JSON.stringify(frame));
  }

  /** Resolves with the first frame at or after index `from` that `pred` matches, or null after `ms`. */
  waitFor(pred, ms, from = 0) {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.frames.slice(from).find(pred);
        if (found || this.closed) {
          cleanup();
          resolve(found ?? null);
        }
      };
      const timer = setTimeout(() => (cleanup(), resolve(null)), ms);
      const cleanup = () => (clearTimeout(timer), this.waiters.delete(check));
      this.waiters.add(check);
      check();
    });
  }

  close() {
    try {
      this.ws.close(1000, "check-agent done");
    } catch {
      // already closed
    }
  }

  /** Cuts the connection with no close frame, as a crashed adapter would. */
  terminate() {
    this.ws.terminate();
  }
}

export async function checkAgent({ connect, prompts, sessionPrefix = `check-${Date.now().toString(36)}` }) {
  const results = new Map();
  const judge = (id, status, detail = {}) => {
    if (!results.has(id) || results.get(id).status !== "fail") results.set(id, { id, status, ...detail });
  };
  const conns = [];
  const open = async (label) => {
    const conn = await Conn.open(connect(`${sessionPrefix}-${label}`));
    conns.push(conn);
    return conn;
  };
  const prompt = (conn, content, requestId, extra = {}) =>
    conn.send({ type: "prompt", content, requestId, onDisconnect: "abort", ...extra });

  try {
    // 1. A turn, watched by a second socket that joins mid-turn.
    let first;
    try {
      first = await open("turn");
    } catch (err) {
      judge("R-open", "fail", { arrived: String(err.message ?? err) });
      return finish(results);
    }
    judge("R-open", "pass");
    const init = await first.waitFor(() => true, WAIT.init);
    judge("R-init", init?.type === "init" ? "pass" : "fail", { arrived: init ? `first frame ${show(init.type)}` : "no frame" });
    if (init?.type === "init") judge("R-protocol", init.protocol === 2 || init.protocol === 1 ? "pass" : "fail", { arrived: `protocol ${show(init.protocol)}` });
    first.send({ type: "check-agent.unknown", detail: "an unknown frame type: to be ignored" });
    prompt(first, prompts.short, "check-r1", { checkAgentExtra: "an unknown field: to be ignored" });
    const create = await first.waitFor((f) => f.type === "message.create", WAIT.create);
    if (!create) {
      judge("R-turn", "fail", { arrived: first.closed ? `the socket closed (${first.closed.code})` : "no message.create" });
      judge("R-tolerant", first.closed ? "fail" : "skip", { arrived: first.closed ? "the socket closed after an unknown frame or field" : undefined });
      return finish(results);
    }
    judge("R-turn", "pass");
    judge("R-tolerant", "pass");
    const turnId = create.turnId;
    judge("R-echo", create.requestId === "check-r1" ? "pass" : "fail", { arrived: `requestId ${show(create.requestId)}` });

    const second = await open("turn");
    const secondInit = await second.waitFor(() => true, WAIT.init);
    const secondFrom = second.frames.length;
    const inFlight = secondInit?.type === "init" ? (secondInit.messages ?? []).find((m) => m?.id === turnId) : undefined;
    const firstEnd = first.frames.find((f) => f.type === "message.finalize" && f.turnId === turnId);
    if (firstEnd) judge("R-init-in-flight", "skip", { arrived: "the turn ended before a second socket joined" });
    else judge("R-init-in-flight", inFlight && !inFlight.parts?.some((p) => p?.type === "finish") ? "pass" : "fail",
      { arrived: secondInit?.type === "init" ? `init without the message ${turnId}` : "no init" });

    prompt(second, prompts.short, "check-r2");
    const busy = await second.waitFor((f) => f.type === "error" || (f.type === "message.create" && f.turnId !== turnId), WAIT.reply, secondFrom);
    const endedBefore = first.frames.some((f) => f.type === "message.finalize" && f.turnId === turnId);
    if (busy?.type === "error") {
      judge("R-busy", "pass");
      judge("R-error-code", busy.code === "busy" ? "pass" : "fail", { arrived: show(busy) });
    } else if (endedBefore && busy) judge("R-busy", "skip", { arrived: "the turn ended before the second prompt" });
    else judge("R-busy", "fail", { arrived: busy ? `a second turn started: ${show(busy)}` : "no answer to the second prompt" });

    // The turn's end: its finalize, or `complete` from an agent that sends no finalize.
    const end = await first.waitFor((f) => (f.type === "message.finalize" && f.turnId === turnId) || f.type === "complete", WAIT.turn);
    await sleep(WAIT.settle);
    const ends = first.frames.filter((f) => f.type === "message.finalize" && f.turnId === turnId);
    judge("R-finalize", ends.length === 1 ? "pass" : "fail", { arrived: `${ends.length} message.finalize${end ? "" : ` in ${WAIT.turn / 1000} s`}` });
    const createdAt = first.frames.indexOf(create);
    const stray = first.frames.slice(createdAt).filter((f) => isTurnEvent(f) && f.turnId !== turnId);
    judge("R-turn-id", stray.length === 0 ? "pass" : "fail", { arrived: `${stray.length} turn event(s) with another turnId, e.g. ${show(stray[0])}` });
    if (end) {
      const complete = end.type === "complete" ? end : await first.waitFor((f) => f.type === "complete", WAIT.reply, first.frames.indexOf(end));
      judge("R-complete", complete ? "pass" : "fail", { arrived: "no complete after the finalize" });
      const tools = new Map();
      for (const f of first.frames.slice(createdAt, first.frames.indexOf(end))) {
        if (f.type === "message.part.tool-update" && f.turnId === turnId) tools.set(f.callId, f.status);
      }
      const open_ = [...tools].filter(([, status]) => status !== "completed" && status !== "error");
      judge("R-tool-end", open_.length === 0 ? "pass" : "fail", { arrived: `tool(s) left ${open_.map(([id, s]) => `${id}: ${s}`).join(", ")}` });
      const seen = second.frames.slice(secondFrom).some(ofTurn(turnId));
      judge("R-broadcast", seen ? "pass" : "fail", { arrived: "the second socket got none of the turn's events" });
      if (inFlight) {
        const textOf = (frames) => frames.filter((f) => f.type === "message.part.text-delta" && f.turnId === turnId).map((f) => f.delta).join("");
        const snapshot = (inFlight.parts ?? []).filter((p) => p?.type === "text").map((p) => p.text).join("");
        const whole = textOf(first.frames);
        const rebuilt = snapshot + textOf(second.frames.slice(secondFrom));
        judge("R-init-continuity", rebuilt === whole ? "pass" : "fail", { arrived: `init + later deltas ${show(rebuilt)}, the turn ${show(whole)}` });
      } else judge("R-init-continuity", "skip", { arrived: "no turn in flight in init" });
    }
    first.close();
    second.close();

    // 2. History: a later socket's init holds the finished turn.
    const later = await open("turn");
    const laterInit = await later.waitFor(() => true, WAIT.init);
    const kept = laterInit?.type === "init" && (laterInit.messages ?? []).some((m) => m?.id === turnId && m.parts?.some((p) => p?.type === "finish"));
    judge("R-history", kept ? "pass" : "fail", { arrived: laterInit?.type === "init" ? `init without the finished message ${turnId}` : "no init" });
    later.close();

    // 3. Aborts: another prompt's requestId is ignored; the turn's own stops it.
    const aborting = await open("abort");
    await aborting.waitFor(() => true, WAIT.init);
    prompt(aborting, prompts.long, "check-r3");
    const longCreate = await aborting.waitFor((f) => f.type === "message.create", WAIT.create);
    if (longCreate) {
      const long = longCreate.turnId;
      aborting.send({ type: "abort", requestId: "check-someone-else" });
      const early = await aborting.waitFor((f) => f.type === "message.finalize" && f.turnId === long, 1000);
      if (early?.reason === "canceled") judge("R-abort-other", "fail", { arrived: "the turn was canceled by another request's abort" });
      else if (early) judge("R-abort-other", "skip", { arrived: "the turn ended within 1 s: give a longer --long-prompt" });
      else judge("R-abort-other", "pass");
      if (!early) {
        aborting.send({ type: "abort", requestId: "check-r3" });
        const stopped = await aborting.waitFor((f) => f.type === "message.finalize" && f.turnId === long, WAIT.reply);
        const after = aborting.frames.length;
        await sleep(1000);
        const more = aborting.frames.slice(after).filter((f) => f.type.startsWith("message.part.") && f.turnId === long);
        judge("R-abort", stopped?.reason === "canceled" && more.length === 0 ? "pass" : "fail",
          { arrived: stopped ? `finalize ${show(stopped.reason)}, then ${more.length} delta(s)` : `no finalize within ${WAIT.reply / 1000} s` });
      } else judge("R-abort", "skip", { arrived: "the turn ended before the abort: give a longer --long-prompt" });
    } else judge("R-abort", "fail", { arrived: "no message.create for the long prompt" });
    aborting.close();

    // 4. The socket of an `abort` prompt cut mid-turn, watched from another socket.
    const cut = await open("close");
    await cut.waitFor(() => true, WAIT.init);
    const watcher = await open("close");
    await watcher.waitFor(() => true, WAIT.init);
    prompt(cut, prompts.long, "check-r4");
    const cutCreate = await watcher.waitFor((f) => f.type === "message.create", WAIT.create);
    if (cutCreate) {
      cut.terminate();
      const stopped = await watcher.waitFor((f) => f.type === "message.finalize" && f.turnId === cutCreate.turnId, WAIT.reply);
      judge("R-close-abort", stopped?.reason === "canceled" ? "pass" : "fail",
        { arrived: stopped ? `finalize ${show(stopped.reason)}` : `the turn still ran ${WAIT.reply / 1000} s after its socket was cut` });
      if (!stopped) watcher.send({ type: "abort" });
    } else judge("R-close-abort", "skip", { arrived: "no message.create seen by the second socket" });
    watcher.close();

    // 5. An answer to no question.
    const answering = await open("answer");
    await answering.waitFor(() => true, WAIT.init);
    const from = answering.frames.length;
    answering.send({ type: "answer", questionId: "check-no-such-question", answer: "yes", onDisconnect: "abort" });
    const refused = await answering.waitFor((f) => f.type === "error", WAIT.reply, from);
    judge("R-answer-refused", refused?.code === "question_not_pending" ? "pass" : "fail", { arrived: show(refused ?? undefined) });
    if (refused) judge("R-error-code", refused.code ? "pass" : "fail", { arrived: show(refused) });
    answering.close();

    // 6. A question and its answer (with --ask-prompt); a tool call gated by an approval question,
    // denied, then approved (with --approve-prompt).
    await checkQuestions({ open, prompt, judge, prompts });

    judge("R-json", conns.every((c) => c.bad.length === 0) ? "pass" : "fail",
      { arrived: `frame(s) that are not a JSON object with a string type: ${show(conns.flatMap((c) => c.bad)[0])}` });
    return finish(results);
  } finally {
    for (const conn of conns) conn.terminate();
  }
}

function finish(results) {
  const list = RULES.map((rule) => ({ ...rule, ...(results.get(rule.id) ?? { status: "skip", arrived: "not reached" }) }));
  return { results: list, mustFailed: list.some((r) => r.level === "MUST" && r.status === "fail") };
}

/** The report: one line per rule, and for a failure what was expected, what arrived, and what a
 * chat client sees. */
export function report(results) {
  const lines = [];
  for (const r of results) {
    lines.push(`${r.level.padEnd(6)} ${r.status.padEnd(4)}  ${r.id.padEnd(18)} ${r.rule}`);
    if (r.status === "fail") {
      lines.push(`         expected: ${r.expected}`);
      lines.push(`         arrived:  ${r.arrived}`);
      lines.push(`         a chat client: ${r.impact}`);
    } else if (r.status === "skip" && r.arrived) lines.push(`         not checked: ${r.arrived}`);
  }
  const count = (status) => results.filter((r) => r.status === status).length;
  lines.push(`${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped`);
  return lines.join("\n");
}
