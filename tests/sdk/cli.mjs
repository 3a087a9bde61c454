// Locates (building if needed) and runs the native `v2-to-sse` CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Path of the CLI binary: $V2_TO_SSE, else target/debug/v2-to-sse built on demand. */
export function cliPath() {
  if (process.env.V2_TO_SSE) return resolve(process.env.V2_TO_SSE);
  const bin = resolve(REPO_ROOT, 'target/debug/v2-to-sse');
  if (!existsSync(bin)) {
    execFileSync('cargo', ['build', '--quiet', '-p', 'session-agent-core', '--bin', 'v2-to-sse'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  return bin;
}

/** Runs the CLI; `input` is either {file} or {stdin: string|Buffer}. Returns {status, stdout: Buffer, stderr}. */
export function runCli(bin, args, input) {
  const argv = input.file ? [...args, input.file] : args;
  const r = spawnSync(bin, argv, {
    input: input.stdin ?? '',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 30_000,
  });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr.toString() };
}
