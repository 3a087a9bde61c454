// What /proc says about a process: CPU time (utime + stime, all threads) and memory (RSS).
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";

let ticks;
/** Clock ticks per second (USER_HZ), for /proc/<pid>/stat's times. */
export function clockTicks() {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU seconds the process used so far (user + system, every thread). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After "(comm) ", field 3 (state) is index 0: utime is field 14 → index 11, stime 15 → 12.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** { rss, hwm } of the process, in bytes (VmRSS now, VmHWM the peak since it started). */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** Samples RSS every `ms` until stopped; `stop()` returns the peak seen, in bytes. */
export function rssSampler(pid, ms = 20) {
  let peak = memory(pid).rss;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memory(pid).rss);
    } catch {
      // the process is gone
    }
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, memory(pid).rss);
      } catch {
        // the process is gone
      }
      return peak;
    },
  };
}

/** The machine, for the results file. */
export function machine() {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? "unknown";
  const loadavg = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
  const memTotal = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1] ?? 0) * 1024;
  return { model, loadavg, memTotal };
}

/** CPU seconds the whole machine spent busy (all cores) so far, from /proc/stat. */
export function machineBusySeconds() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3] + (fields[4] ?? 0); // idle + iowait
  return (total - idle) / clockTicks();
}

/** The CPU milliseconds `cpu()` (seconds, growing) counts in each second of a `seconds`-long
 * window, and in all: where an idle cost falls, second by second. */
export async function cpuBySecond(cpu, seconds) {
  const series = [];
  let before = cpu();
  const start = before;
  for (let s = 0; s < seconds; s++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpu();
    series.push(Math.round((now - before) * 1000));
    before = now;
  }
  return { ms: Math.round((before - start) * 1000), series };
}
