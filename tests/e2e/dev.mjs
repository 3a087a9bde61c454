// `npm start`'s server (scripts/dev.sh), started and stopped by the tests that run it
// (dev_server.test.mjs, dev_agent.test.mjs), on a port free at the time.
import { spawn } from "node:child_process";
import net from "node:net";
import { root, sleep } from "./harness.mjs";

/** A TCP port free on every loopback address at the time of asking. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "0.0.0.0", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts a TCP connection at `host:port`. */
export function accepts(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts scripts/dev.sh with `env` and `args` on a free port of `host`, waits until wrangler
 * itself says it is ready there (a port free when asked can be another process's by the time
 * wrangler binds it, and a bare TCP accept would then reach that process: one CI run served
 * another test's worker), and resolves to `{ base, port, stop }`. A port taken in between is
 * tried again with another, up to three times.
 */
export async function devServer(env, host, args = []) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const stop = await startOn(env, host, port, args);
      return { base: `http://${host}:${port}`, port, stop };
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** wrangler could not bind its port: another process took it after freePort released it. */
class PortTaken extends Error {}

/** scripts/dev.sh on `host:port`, resolved to its stop once wrangler says it is ready there. */
async function startOn(env, host, port, args) {
  const child = spawn("bash", ["scripts/dev.sh", ...args], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  // wrangler's own line (wrangler dev prints `[wrangler:info] Ready on http://HOST:PORT`, HOST
  // as it names it); that the address is `host` is what `accepts` checks.
  const ready = new RegExp(`Ready on http://\\S+:${port}\\b`);
  const deadline = Date.now() + 90_000;
  while (!(ready.test(output) && (await accepts(host, port)))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      stop();
      const Failure = /Address already in use/.test(output) ? PortTaken : Error;
      throw new Failure(`scripts/dev.sh did not listen on ${host}:${port}:\n${output.slice(-2000)}`);
    }
    await sleep(250);
  }
  return stop;
}
