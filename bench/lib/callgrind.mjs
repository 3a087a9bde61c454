// workerd under Valgrind's callgrind, for the scripts that count instructions
// (bench/instructions.mjs, bench/entry.mjs): Miniflare starts whatever MINIFLARE_WORKERD_PATH
// names, here a script that runs workerd under callgrind counting nothing until told to, one
// file per thread; each counted window is dumped as a numbered part.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { collectionsIn } from "./collections.mjs";

/**
 * Points Miniflare at workerd under callgrind (call before startWorkers). `perfMap`: V8 also
 * writes its perf map (/tmp/perf-<pid>.map: every compiled function's address, size and name),
 * so that bench/jit_functions.mjs can name the JIT-compiled code callgrind knows by address
 * only (it also opens a V8 log per isolate: sent nowhere). Exits with a message when Valgrind
 * is missing. `fromStart`: count from workerd's first instruction (a cold start), not only in
 * the windows counter() opens. `v8Flags`: more V8 flags for workerd (a diagnosis, such as
 * `--no-liftoff`: every WebAssembly function compiled by TurboFan from its first call). Returns { out: the directory of callgrind's files, counter(pid),
 * sinceStart(pid), finish(…) }: sinceStart(pid) dumps and returns everything counted so far, as
 * { main, others } (with `fromStart`: the process's whole life);
 * counter(pid) returns count(run), the instructions of `await run()` as { part, main, others,
 * collections } (workerd's main thread, where every worker's JavaScript and WebAssembly runs, all
 * other threads, and the main thread's share spent in V8's collections: ./collections.mjs), each
 * call one more part (`out.<pid>.<part>-<thread>`); finish({ keep, pid, parts })
 * ends the run: with `keep`, it writes parts.json ({ pid, parts }: which part is which) and moves
 * V8's perf map beside the files, and says where they are; else it removes them.
 */
export function callgrindWorkerd({ perfMap = false, fromStart = false, v8Flags = [] } = {}) {
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    console.error("valgrind is not installed (Debian: apt-get install valgrind)");
    process.exit(2);
  }
  const out = mkdtempSync(path.join(os.tmpdir(), "callgrind-"));
  const workerd = createRequire(import.meta.url)("workerd").default; // the binary's path
  const wrapper = path.join(out, "workerd.sh");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --instr-atstart=${fromStart ? "yes" : "no"} --separate-threads=yes ` +
      // JIT-compiled code rewrites itself: every block is checked, not only those on the stack.
      `--smc-check=all-non-file --callgrind-out-file=${out}/out.%p --log-file=${out}/valgrind.log ${workerd} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  process.env.MINIFLARE_WORKERD_PATH = wrapper;
  const flags = [...(perfMap ? ["--perf-basic-prof", "--no-logfile-per-isolate", "--logfile=/dev/null"] : []), ...v8Flags];
  if (flags.length > 0) process.env.MINIFLARE_WORKERD_V8_FLAGS = flags.join(" ");

  const control = (...args) => execFileSync("callgrind_control", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const counter = (pid) => {
    let part = 0;
    return async (run) => {
      control("-z", String(pid));
      control("-i", "on", String(pid));
      await run();
      control("-i", "off", String(pid));
      control("-d", String(pid));
      part += 1;
      return { part, ...totals(pid, part) };
    };
  };
  /**
   * The main thread's and the other threads' instructions in dump `part` of process `pid`, and
   * the main thread's in collections.
   */
  const totals = (pid, part) => {
    const files = readdirSync(out).filter((f) => f.startsWith(`out.${pid}.${part}-`));
    const each = files.map((f) => {
      const text = readFileSync(path.join(out, f), "utf8");
      const main = f.endsWith("-01");
      return {
        main,
        ir: Number(/^totals: (\d+)/m.exec(text)?.[1] ?? NaN),
        collections: main ? collectionsIn(text) : 0,
      };
    });
    if (!each.some((t) => t.main)) throw new Error(`no dump of the main thread for part ${part} in ${out}`);
    const sum = (list, key) => list.reduce((a, t) => a + t[key], 0);
    const main = each.filter((t) => t.main);
    return { main: sum(main, "ir"), others: sum(each.filter((t) => !t.main), "ir"), collections: sum(main, "collections") };
  };
  const sinceStart = (pid) => {
    control("-d", String(pid));
    return totals(pid, 1);
  };
  const finish = ({ keep, pid, parts }) => {
    if (!keep) {
      rmSync(out, { recursive: true, force: true });
      return;
    }
    writeFileSync(path.join(out, "parts.json"), JSON.stringify({ pid, parts }, null, 1));
    const map = `/tmp/perf-${pid}.map`;
    if (existsSync(map)) renameSync(map, path.join(out, "perf.map"));
    console.log(`callgrind files kept in ${out} (parts.json: which part is which; perf.map: JIT code's names)`);
  };
  return { out, counter, sinceStart, finish };
}
