// One run of a worker's Cron Trigger in a benchmark (bench/sweep.mjs, bench/retention.mjs): the
// harness's `scheduled` at a time the benchmark sets, timed, with workerd's CPU and the run's
// log line.
import { sleep } from "../../tests/e2e/harness.mjs";
import { workerdPids } from "./workers.mjs";
import { cpuSeconds } from "./proc.mjs";

/**
 * A runner of `worker`'s trigger: `run(at)` resolves with the run's wall time and workerd's CPU
 * in milliseconds, and the detail of its `event` line (waited for up to 10 s; `null` if none).
 */
export function scheduledRuns(worker, event) {
  const pids = workerdPids();
  if (pids.length === 0) throw new Error("no workerd process found");
  const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  return async function run(at) {
    const lines = worker.diagnostics.length;
    const cpuBefore = cpu();
    const started = performance.now();
    await worker.scheduled(at);
    const wallMs = performance.now() - started;
    const cpuMs = (cpu() - cpuBefore) * 1000;
    let line;
    for (const deadline = Date.now() + 10_000; !line && Date.now() < deadline; await sleep(20)) {
      line = worker.diagnostics.slice(lines).find((d) => d.event === event);
    }
    return { wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), line: line?.detail ?? null };
  };
}
