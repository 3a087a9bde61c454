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
 * Starts scripts/dev.sh with `env` and `args`, waits until `host:port` answers, and resolves to a
 * function that stops it.
 */
export async function devServer(env, host, port, args = []) {
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
  const deadline = Date.now() + 90_000;
  while (!(await accepts(host, port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      stop();
      throw new Error(`scripts/dev.sh did not listen on ${host}:${port}:\n${output.slice(-2000)}`);
    }
    await sleep(250);
  }
  return stop;
}
