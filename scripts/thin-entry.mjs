// The worker's entry without a Proxy per request, and its futures' queue without
// `queueMicrotask`: rewrites the module that worker-build 0.8.7 writes (build/index.js), keeping
// its panic recovery.
//
// worker-build exports the entry as a Proxy of a `WorkerEntrypoint` class. For every request the
// runtime constructs it, which makes an instance, a Proxy of that instance with a fresh copy of
// twelve trap functions, and, when `fetch` is read through it, a Proxy of `fetch`; then `this.env`
// and `this.ctx` are read through the instance's Proxy too. `node bench/entry.mjs` counts that at
// about 20k instructions per request (bench/README.md, "What a request costs before any chat"),
// where the whole of a 10-event chat turn's work is a few hundred thousand.
//
// What the Proxy is for stays: before each request, a wasm instance that trapped (a panic: the
// Rust code aborts) is replaced by a new one, and a trap thrown out of a call marks it so. The new
// default export is a plain object whose `fetch` does exactly that around the same handler (and
// so does its `scheduled`, when the worker exports one: its Cron Trigger):
//
//   { fetch(request, env, ctx) { checkReinitialize(); try { return handler(request, env, ctx) }
//     catch (error) { handleMaybeCritical(error); throw error } } }
//
// The same script makes wasm-bindgen's futures queue schedule its runs with a resolved promise's
// `then` instead of `queueMicrotask`. Both run the callback as a microtask, in the order asked,
// but workerd's `queueMicrotask` wraps each callback in a new native function first: about 9k
// instructions a call (callgrind, inclusive), three per chat turn for the adapter and nine for the
// demo agent, where a promise reaction is V8's own and costs a fraction of that. A trap thrown out
// of a queued run (a panic in a future) is handed to the same marker as above, so that the next
// request still gets a new instance; anything else thrown there is logged.
//
// The module is minified, so the names are found by the shapes of worker-build's template
// (its `shim.js`) and of wasm-bindgen's glue; each must be found exactly once, or the build fails
// with what was not found: a new worker-build or wasm-bindgen needs this script read again. The
// Durable Object classes' Proxies stay.
//
//   node scripts/thin-entry.mjs <index.js>
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const NAME = "[\\w$]+";
// Where a name starts: after no character a name may hold. (`\b` is not that: esbuild's names
// may begin with `$`, which it does not count as a word character.)
const START = "(?<![\\w$])";

/** The one match of `pattern` in `code`, or an error naming `what`. */
function only(code, pattern, what) {
  const matches = [...code.matchAll(new RegExp(pattern, "g"))];
  if (matches.length !== 1) {
    throw new Error(`thin-entry: ${what}: expected once in worker-build's output, found ${matches.length} times`);
  }
  return matches[0];
}

/** `code` (worker-build's index.js) with the thin entry as its default export. */
export function thinEntry(code) {
  const exported = only(code, `export\\{[^}]*?${START}(${NAME}) as default\\b[^}]*\\}`, "the default export")[1];
  const proxy = only(code, `${START}${escape(exported)}=new Proxy\\((${NAME}),(${NAME})\\)`, "the entry's Proxy");
  const entryClass = proxy[1];
  // The entry class's method `name` as worker-build writes it; its group 2 is the handler it calls.
  const method = (name) =>
    `${START}${escape(entryClass)}\\.prototype\\.${name}=function\\((${NAME})\\)\\{return (${NAME})\\.call\\(this,\\1,this\\.env,this\\.ctx\\)\\}`;
  const handler = only(code, method("fetch"), "the entry's fetch handler")[2];
  const checkReinitialize = only(
    code,
    `function (${NAME})\\(\\)\\{${NAME}\\.criticalError&&\\(console\\.log\\("Reinitializing Wasm application"\\)`,
    "the check that reinitializes a trapped instance",
  )[1];
  const handleMaybeCritical = only(
    code,
    `function (${NAME})\\((${NAME})\\)\\{\\2 instanceof WebAssembly\\.RuntimeError&&`,
    "the handler that marks a trapped instance",
  )[1];
  // Each handler the build has: `fetch` always, `scheduled` when the worker exports one (its
  // Cron Trigger), each around the same check and marker.
  const wrap = (name, arg, fn) =>
    `${name}(${arg},env,ctx){${checkReinitialize}();` +
    `try{return ${fn}(${arg},env,ctx)}catch(error){throw ${handleMaybeCritical}(error),error}}`;
  const handlers = [wrap("fetch", "request", handler)];
  const scheduled = [...code.matchAll(new RegExp(method("scheduled"), "g"))];
  if (scheduled.length > 1) throw new Error(`thin-entry: the entry's scheduled handler: expected at most once, found ${scheduled.length} times`);
  if (scheduled.length === 1) handlers.push(wrap("scheduled", "controller", scheduled[0][2]));
  const entry = `${exported}={${handlers.join(",")}}`;
  const thin = code.slice(0, proxy.index) + entry + code.slice(proxy.index + proxy[0].length);
  const queued = only(
    thin,
    `(__wbg_queueMicrotask_[0-9a-f]+:function\\((${NAME})\\)\\{)queueMicrotask\\(\\2\\)\\}`,
    "wasm-bindgen's call of queueMicrotask",
  );
  const run = queued[2];
  const viaPromise =
    `${queued[1]}Promise.resolve().then(${run}).catch((error)=>{` +
    `error instanceof WebAssembly.RuntimeError?${handleMaybeCritical}(error):console.error(error)})}`;
  return thin.slice(0, queued.index) + viaPromise + thin.slice(queued.index + queued[0].length);
}

/** `name` for a regular expression (a minified name may hold `$`). */
function escape(name) {
  return name.replace(/\$/g, "\\$");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/thin-entry.mjs <index.js>");
    process.exit(2);
  }
  writeFileSync(file, thinEntry(readFileSync(file, "utf8")));
}
