// Where one worker's instructions went, function by function, JIT-compiled code included: reads
// the files `bench/instructions.mjs --keep` leaves (callgrind's, one per part and thread, and V8's
// perf map) and prints each function's own instructions per turn over the worker's measured
// short-turn parts, beside another worker's (by default the agent alone, whose turns are the same
// agent work: what is left is the worker's own).
//
//   node bench/jit_functions.mjs <dir> [worker] [against] [--top N] [--wasm FILE] [--inclusive]
//
//   dir      the directory instructions.mjs --keep printed
//   worker   rust, ts, pass, c1, … (default rust)
//   against  the worker to compare with (default agent)
//   --top N  the functions listed (default 40), largest difference first
//   --wasm FILE  the build whose functions V8's jump table calls (default build/index_bg.wasm:
//            the demo build, the agent's; instructions.mjs's rust slot is the production build,
//            a module of its own: name it with build/production-symbols.wasm. Only one module's
//            jump table is named, the one whose lowest slot is called: compare a worker with
//            the one that shares its module, or read the other's slots as unnamed)
//   --inclusive  each function's instructions with those of everything it calls (JavaScript and
//            the runtime's C++ included), where a call is one callgrind saw: which step of a
//            request costs what (the classes stay self costs)
//
// Callgrind knows JIT-compiled code by address only; the perf map names it (`JS:<name>-<index>-
// <tier>` for WebAssembly, `JS:<name> <file>` for JavaScript). A WebAssembly function called
// through V8's jump table is counted under its slot, which the map does not name: slot i, 8 bytes
// each, is the i-th function after the imported ones, and the table is taken to start at the 4 KB
// page of the lowest slot called (the allocator's functions, called on every turn, come first;
// the first line printed says which function slot 1 is, to check). Each name is also put in a class
// (wasm by tier, JavaScript, V8, the allocator, kj, workerd, the kernel's, the rest), summed at the
// top. Main thread only, where every worker's JavaScript and WebAssembly runs; the clean parts
// only (within 1.5× of the worker's lowest, as instructions.mjs's clean figure).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { commandLine } from "./lib/args.mjs";
import { functionsOf } from "./lib/wasm_names.mjs";

const { positional, option, value, flag } = commandLine(process.argv.slice(2), ["--top", "--wasm"]);
const inclusive = flag("--inclusive");
const wasmFile = value("--wasm") ?? path.join(path.dirname(new URL(import.meta.url).pathname), "../build/index_bg.wasm");
const [dir, worker = "rust", against = "agent"] = positional;
const top = option("--top", 40);
if (!dir) {
  console.error("usage: node bench/jit_functions.mjs <dir> [worker] [against] [--top N] [--wasm FILE]");
  process.exit(2);
}

const { pid, parts } = JSON.parse(readFileSync(path.join(dir, "parts.json"), "utf8"));
const shortEvents = Math.min(...parts.map((p) => p.events));

/** The perf map as sorted [start, end, name] ranges. */
function perfMap() {
  let text = "";
  try {
    text = readFileSync(path.join(dir, "perf.map"), "utf8");
  } catch {
    console.error("no perf.map in the directory: JIT-compiled code stays unnamed");
  }
  const ranges = [];
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) ranges.push([BigInt(`0x${m[1]}`), BigInt(`0x${m[1]}`) + BigInt(`0x${m[2]}`), m[3]]);
  }
  return ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
const ranges = perfMap();
/** The perf map's name of the code at `address` (the last range that holds it), if any. */
function nameAt(address) {
  let lo = 0;
  let hi = ranges.length - 1;
  let found;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid][0] <= address) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = found; i !== undefined && i >= 0 && i > found - 64; i--) {
    if (ranges[i][0] <= address && address < ranges[i][1]) return ranges[i][2];
  }
  return undefined;
}

/**
 * Instructions by function name in one callgrind file, read once: `self`, each function's own;
 * `inclusive`, its own plus the inclusive cost of every call it makes to another function (a
 * recursive call's level, `'2`, is the same function): what running it cost, callees included.
 */
function costsOf(file) {
  const names = new Map();
  const self = new Map();
  const inclusive = new Map();
  const add = (map, fn, ir) => map.set(fn, (map.get(fn) ?? 0) + ir);
  let current;
  let callee;
  let call = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("fn=")) {
      const m = /^fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (m[2] !== undefined) names.set(m[1], m[2]);
      current = names.get(m[1]);
      continue;
    }
    if (line.startsWith("cfn=")) {
      const m = /^cfn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (m[2] !== undefined) names.set(m[1], m[2]);
      callee = names.get(m[1]);
      continue;
    }
    if (line.startsWith("calls=")) {
      call = true; // the next cost line is the call's inclusive cost, not this function's own
      continue;
    }
    if (!/^[0-9+\-*]/.test(line)) continue;
    const parts = line.trim().split(/\s+/);
    const ir = Number(parts[parts.length - 1]);
    const wasCall = call;
    call = false;
    if (current === undefined || !Number.isFinite(ir)) continue;
    if (!wasCall) {
      add(self, current, ir);
      add(inclusive, current, ir);
    } else if (callee === undefined || callee.replace(/'\d+$/, "") !== current.replace(/'\d+$/, "")) {
      add(inclusive, current, ir);
    }
  }
  return { self, inclusive };
}

const { names: wasmNames, sizes: wasmSizes } = functionsOf(readFileSync(wasmFile));
const imported = Math.min(...wasmSizes.keys());
/** The jump table's start: set from the lowest unnamed address seen (`locateJumpTable`). */
let jumpTable;
function locateJumpTable(addresses) {
  const lowest = addresses.filter((a) => a >= 1n << 32n && nameAt(a) === undefined).sort((x, y) => (x < y ? -1 : 1))[0];
  if (lowest !== undefined) jumpTable = lowest & ~0xfffn;
}
/** A callgrind function name, named through the perf map (or the jump table) when it is an address. */
function resolve(withLevel) {
  // Callgrind marks a recursive call's level as `'2`, `'3`…: one function all the same.
  const name = withLevel.replace(/'\d+$/, "");
  const m = /^0x([0-9a-f]+)$/.exec(name);
  if (!m) return name;
  const address = BigInt(`0x${m[1]}`);
  const named = nameAt(address);
  if (named !== undefined) return named;
  if (jumpTable !== undefined && address >= jumpTable && (address - jumpTable) % 8n === 0n) {
    const index = imported + Number((address - jumpTable) / 8n);
    if (wasmNames.has(index)) return `JS:${wasmNames.get(index)}-${index}-jump-table`;
  }
  return "(unnamed JIT code)";
}

/** The class a function is counted in. */
function classOf(name) {
  const wasm = /-\d+-(liftoff|turbofan|turboshaft|jump-table)$/.exec(name);
  if (wasm) return `wasm (${wasm[1]})`;
  if (name.startsWith("JS:")) return "JavaScript (JIT)";
  if (/^(Builtin|BytecodeHandler|Builtins_)/.test(name)) return "V8 builtins";
  if (name.includes("v8::") || name.includes("cppgc::")) return "V8";
  if (name.includes("tcmalloc") || /^operator (new|delete)/.test(name)) return "allocator";
  if (name.includes("kj::") || name.includes("capnp::")) return "kj / capnp";
  if (name.includes("workerd::")) return "workerd";
  if (name === "(unnamed JIT code)") return name;
  return "other";
}

/** { perTurn: Map(name → instructions per turn), classes: Map(class → per turn), turns } of a worker. */
function countsOf(name) {
  const mine = parts.filter((p) => p.worker === name && p.events === shortEvents && !p.dropped);
  if (mine.length === 0) throw new Error(`no measured short-turn parts of ${name} in ${dir}`);
  const files = readdirSync(dir);
  const read = mine
    .filter((p) => files.includes(`out.${pid}.${p.part}-01`))
    .map((p) => {
      const file = path.join(dir, `out.${pid}.${p.part}-01`);
      const { self: costs, inclusive: withCallees } = costsOf(file);
      const shown = inclusive ? withCallees : costs;
      return { ...p, costs, shown, perTurn: [...costs.values()].reduce((s, v) => s + v, 0) / p.turns };
    });
  // The clean windows only, as instructions.mjs's clean figure: within 1.5× of the lowest (a
  // window that cppgc's sweep under Valgrind took over reads 3× to 60× the others).
  if (jumpTable === undefined) {
    locateJumpTable(read.flatMap((p) => [...p.costs.keys()].filter((k) => k.startsWith("0x")).map((k) => BigInt(k.replace(/'\d+$/, "")))));
  }
  const lowest = Math.min(...read.map((p) => p.perTurn));
  const clean = read.filter((p) => p.perTurn <= lowest * 1.5);
  const perTurnOf = (which) => {
    const total = new Map();
    for (const p of clean) {
      for (const [fn, ir] of p[which]) {
        const named = resolve(fn);
        total.set(named, (total.get(named) ?? 0) + ir);
      }
    }
    return new Map([...total].map(([k, v]) => [k, v / turns]));
  };
  const turns = clean.reduce((n, p) => n + p.turns, 0);
  const perTurn = perTurnOf("costs");
  const classes = new Map();
  for (const [k, v] of perTurn) classes.set(classOf(k), (classes.get(classOf(k)) ?? 0) + v);
  return { perTurn, shown: inclusive ? perTurnOf("shown") : perTurn, classes, turns, parts: clean.length, of: mine.length };
}

const a = countsOf(worker);
const b = countsOf(against);
if (jumpTable !== undefined) {
  console.log(`jump table taken at 0x${jumpTable.toString(16)}: slot 1 is ${wasmNames.get(imported + 1) ?? "?"} (the allocator's, if the guess is right)`);
}
const k = (v) => `${(v / 1000).toFixed(1)}k`.padStart(9);
const sum = (m) => [...m.values()].reduce((s, v) => s + v, 0);
console.log(`${worker}: ${a.parts} clean parts of ${a.of}, ${a.turns} turns of ${shortEvents} events; ${against}: ${b.parts} of ${b.of}, ${b.turns} turns`);
console.log(`instructions per turn, main thread: ${worker} ${k(sum(a.perTurn))}, ${against} ${k(sum(b.perTurn))}, difference ${k(sum(a.perTurn) - sum(b.perTurn))}`);
console.log(`\n${"by class".padEnd(24)} ${worker.padStart(9)} ${against.padStart(9)} difference`);
const classes = new Set([...a.classes.keys(), ...b.classes.keys()]);
for (const c of [...classes].sort((x, y) => (a.classes.get(y) ?? 0) - (b.classes.get(y) ?? 0) - ((a.classes.get(x) ?? 0) - (b.classes.get(x) ?? 0)))) {
  console.log(`${c.padEnd(24)} ${k(a.classes.get(c) ?? 0)} ${k(b.classes.get(c) ?? 0)} ${k((a.classes.get(c) ?? 0) - (b.classes.get(c) ?? 0))}`);
}
console.log(`\n${worker.padStart(9)} ${against.padStart(9)} difference  function${inclusive ? " (inclusive: with all it calls)" : ""}`);
const names = new Set([...a.shown.keys(), ...b.shown.keys()]);
const rows = [...names].map((n) => [n, a.shown.get(n) ?? 0, b.shown.get(n) ?? 0]).sort((x, y) => y[1] - y[2] - (x[1] - x[2]));
for (const [n, x, y] of rows.slice(0, top)) console.log(`${k(x)} ${k(y)} ${k(x - y)}  ${n.slice(0, 120)}`);
