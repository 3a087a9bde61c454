// How many times a chat turn calls from WebAssembly into JavaScript, import by import: an exact
// count, where instructions and time move by more than one call costs. Each call is a crossing
// of the boundary (a wrapper, the glue's conversions, often a string copied or an object handle
// made), so a change that removes calls shows here even when `instructions.mjs` cannot tell it
// from noise. Calls from JavaScript into WebAssembly (the wiring's deliveries) are not counted.
//
//   node bench/crossings.mjs [build dir] [--events N] [--turns N]
//
//   build dir   a build of this worker (default build/)
//   --events N  events of a turn (`/flood N`, default 10)
//   --turns N   turns counted (default 50), after 10 that are not
//
// A scratch copy of the build is instrumented: every import the wasm module is instantiated with
// counts its calls, and `GET /__crossings` answers (and resets) the counts; the copy runs as an
// adapter beside the agent's worker, which is not counted.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commandLine } from "./lib/args.mjs";
import { newAgent, runTurn, waveOutcome } from "./lib/client.mjs";
import { root, startWorkers } from "./lib/workers.mjs";

const { positional, option } = commandLine(process.argv.slice(2), ["--events", "--turns"]);
const events = option("--events", 10);
const turns = option("--turns", 50);
const build = path.resolve(positional[0] ?? path.join(root, "build"));

/** `code` (a build's index.js) with its imports counted and the `/__crossings` route. */
function instrument(code) {
  const counting =
    "const crossings={};function countCrossings(imports){for(const name of Object.keys(imports)){" +
    "const module=imports[name];if(!module)continue;const counted={};for(const key of Object.keys(module)){" +
    'const f=module[key];if(typeof f!=="function"){counted[key]=f;continue}' +
    'const label=`${name.replace(/.*\\//,"")}:${key.replace(/_[0-9a-f]{16}$/,"")}`;' +
    "counted[key]=function(...args){crossings[label]=(crossings[label]??0)+1;return f.apply(this,args)}}" +
    "imports[name]=counted}return imports}\n";
  let instances = 0;
  let out = code.replace(/new WebAssembly\.Instance\(([\w$]+),([\w$]+)\(\)\)/g, (_, module, imports) => {
    instances += 1;
    return `new WebAssembly.Instance(${module},countCrossings(${imports}()))`;
  });
  // The thin entry's fetch (scripts/thin-entry.mjs).
  let entries = 0;
  out = out.replace(/([\w$]+=\{fetch\(request,env,ctx\)\{)/, (entry) => {
    entries += 1;
    return (
      `${entry}if(new URL(request.url).pathname==="/__crossings"){const counts={...crossings};` +
      "for(const key of Object.keys(crossings))delete crossings[key];return new Response(JSON.stringify(counts))}"
    );
  });
  if (instances === 0 || entries !== 1) throw new Error(`crossings: not the shape of scripts/build.sh's index.js (${instances} instantiations, ${entries} entries)`);
  return counting + out;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "crossings-"));
cpSync(build, scratch, { recursive: true });
writeFileSync(path.join(scratch, "index.js"), instrument(readFileSync(path.join(build, "index.js"), "utf8")));
// The counted adapter talks to the agent's worker: its own demo agent stays off, which a
// production build (no demo compiled in) requires.
const w = await startWorkers({ adapters: [], variants: { counted: path.join(scratch, "index.js") }, vars: { DEMO_AGENT: "off" } });
const agent = newAgent();
const url = w.urls.counted;
async function run(count) {
  for (let i = 0; i < count; i++) {
    const result = await runTurn(url, "rust", `/flood ${events}`, { agent });
    const { lost, reasons } = waveOutcome([{ status: "fulfilled", value: result }], events);
    if (lost) throw new Error(`/flood ${events} did not complete (${reasons.join(", ")})`);
  }
}
const take = async () => JSON.parse(await (await fetch(`${url}/__crossings`)).text());
let counts;
try {
  await run(10);
  await take();
  await run(turns);
  // The last stream's end (its log line, the socket's close) runs after its body ended.
  await new Promise((resolve) => setTimeout(resolve, 300));
  counts = await take();
} finally {
  await w.dispose();
  rmSync(scratch, { recursive: true, force: true });
}
// wasm-bindgen's own imports, by what they do.
const GLUE = {
  "index_bg.js:__wbindgen_generic": "a Rust closure made into a JavaScript function",
  "index_bg.js:__wbg__wbg_cb_unref": "such a closure dropped",
};
const rows = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(`calls from WebAssembly into JavaScript per ${events}-event turn (${turns} turns):`);
for (const [label, n] of rows) {
  const name = label.replace(/^index_bg\.js:(__wbg_)?/, "");
  console.log(`${(n / turns).toFixed(2).padStart(8)}  ${name}${GLUE[label] ? `  (${GLUE[label]})` : ""}`);
}
console.log(`${(rows.reduce((sum, [, n]) => sum + n, 0) / turns).toFixed(2).padStart(8)}  in all`);
