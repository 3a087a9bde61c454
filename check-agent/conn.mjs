// One socket to the agent, as check-agent's scenarios use it: every frame it received (parsed),
// the raw text of those that did not parse, its `init`, and a wait for the next frame that
// matters. Opening one that the agent refuses says how (an HTTP status), and one that cannot be
// reached at all says so (the run then exits 2: docs/check-agent.md).
import { WAIT } from "./frames.mjs";

/** The agent could not be reached at all (no HTTP answer): not a rule's failure. */
export class Unreachable extends Error {}

/** The upgrade got an HTTP answer other than 101. */
export class Refused extends Error {
  constructor(status) {
    super(status === 401 || status === 403
      ? `the upgrade was refused: ${status} (is the token right? --token)`
      : `the upgrade was answered ${status}, not 101 with a WebSocket`);
    this.status = status;
  }
}

export class Conn {
  constructor(ws) {
    this.ws = ws;
    this.frames = [];
    /** Each frame of `frames` as it came, its text. */
    this.texts = [];
    /** When each frame of `frames` arrived (ms since the epoch). */
    this.at = [];
    this.bad = [];
    this.closed = null;
    this.init = undefined;
    /** The protocol the upgrade's answer said in `X-Agent-Protocol` (null: none). */
    this.protocolHeader = null;
    ws.once("upgrade", (response) => {
      this.protocolHeader = response.headers["x-agent-protocol"] ?? null;
    });
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
      else {
        this.frames.push(frame);
        this.texts.push(text);
        this.at.push(Date.now());
      }
      this.wake();
    });
    ws.on("close", (code) => {
      this.closed = { code };
      this.wake();
    });
    ws.on("error", () => {});
  }

  /** Opens `ws` and waits for its first frame (`init`, when the agent sends one): resolves to the
   * Conn, whose `init` is that frame if it is an `init` (null if the first frame is another,
   * undefined if none came within `initWait`) and `joined` the index of the first frame after it. */
  static async open(ws, initWait = WAIT.init) {
    const conn = await new Promise((resolve, reject) => {
      const conn = new Conn(ws);
      ws.once("open", () => resolve(conn));
      ws.once("unexpected-response", (_req, res) => reject(new Refused(res.statusCode)));
      ws.once("error", (err) => reject(new Unreachable(`cannot reach the agent: ${err.message ?? err}`)));
    });
    const first = await conn.waitFor(() => true, initWait);
    conn.init = first === null ? undefined : first.type === "init" ? first : null;
    conn.joined = conn.init ? conn.frames.indexOf(first) + 1 : 0;
    return conn;
  }

  wake() {
    for (const waiter of this.waiters) waiter();
  }

  send(frame) {
    try {
      this.ws.send(JSON.stringify(frame));
    } catch {
      // closed: what the agent did is judged from what arrived
    }
  }

  /** Sends `text` as it is (a frame whose bytes matter: the ping). */
  sendText(text) {
    try {
      this.ws.send(text);
    } catch {
      // closed: what the agent did is judged from what arrived
    }
  }

  /** Resolves with the first frame at or after index `from` that `pred` matches, or null after
   * `ms` (or once the socket closed). */
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

  /** When `frame` (one of `frames`) arrived. */
  arrival(frame) {
    return this.at[this.frames.indexOf(frame)];
  }

  /** The frames from index `from` on that `pred` matches. */
  since(from, pred = () => true) {
    return this.frames.slice(from).filter(pred);
  }

  /** Closes with a close frame (1000), as the adapter does. */
  close() {
    try {
      this.ws.close(1000, "check-agent done");
    } catch {
      // already closed
    }
  }

  /** Cuts the connection with no close frame, as a crashed adapter would (the agent sees a
   * socket error, or a close 1006). */
  terminate() {
    this.ws.terminate();
  }
}
