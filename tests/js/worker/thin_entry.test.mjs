// The entry without a Proxy per request (scripts/thin-entry.mjs): on a module of the shape
// worker-build writes, the new default export runs the reinitializing check before the handler,
// hands it the request, env and context, marks a trapped instance and rethrows; the futures
// queue runs from promise reactions, in order, and marks a trap there too; and a module of
// another shape fails the build with what was not found. The built worker's own entry is checked
// by the end-to-end tests (tests/e2e/panic_check.test.mjs: a new instance after a panic).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { thinEntry } from "../../../scripts/thin-entry.mjs";

// worker-build 0.8.7's shim, minified as it ships (names as esbuild gives them), with a handler
// that records its calls and traps on request "trap"; constructing the Proxy throws, so a test
// that passes never went through it.
const SHAPED = [
  'var S={criticalError:!1,instanceId:0};export const calls=[];',
  'function ne(){S.criticalError&&(console.log("Reinitializing Wasm application"),calls.push("reinitialized"),S.criticalError=!1,S.instanceId++)}',
  'function re(r){r instanceof WebAssembly.RuntimeError&&(calls.push("marked"),S.criticalError=!0)}',
  'function le(r,e,t){calls.push(["fetch",r,e,t]);if(r==="trap")throw new WebAssembly.RuntimeError("unreachable");return"answer to "+r}',
  'class ot{}var U=class extends ot{};U.prototype.fetch=function(e){return le.call(this,e,this.env,this.ctx)};',
  'var B={construct(){throw new Error("the Proxy was constructed")}},lt=new Proxy(U,B),ht=new Proxy(ot,B);',
  // wasm-bindgen's imports, among them its futures queue's call of queueMicrotask.
  "export const imports={__wbg_queueMicrotask_1e8503a8a690f0a3:function(e){return e.queueMicrotask},",
  "__wbg_queueMicrotask_4a1a4d8dd332373b:function(e){queueMicrotask(e)}};",
  "export{ht as DemoSessionAgent,lt as default};",
].join("");
const QUEUE = "__wbg_queueMicrotask_4a1a4d8dd332373b";

const load = (code) => import(`data:text/javascript,${encodeURIComponent(code)}`);

test("the default export is a plain object that calls the handler", async () => {
  const module = await load(thinEntry(SHAPED));
  assert.equal(typeof module.default.fetch, "function");
  assert.equal(module.default.fetch("req", "env", "ctx"), "answer to req");
  assert.deepEqual(module.calls, [["fetch", "req", "env", "ctx"]]);
});

test("a worker with a Cron Trigger keeps its scheduled handler, around the same check and marker", async () => {
  const scheduled = 'function sc(c,e,t){calls.push(["scheduled",c,e,t]);if(c==="trap")throw new WebAssembly.RuntimeError("unreachable")}';
  const shaped = SHAPED.replace("class ot{}", `${scheduled}class ot{}`).replace(
    "U.prototype.fetch=function(e){return le.call(this,e,this.env,this.ctx)};",
    "U.prototype.fetch=function(e){return le.call(this,e,this.env,this.ctx)};U.prototype.scheduled=function(e){return sc.call(this,e,this.env,this.ctx)};",
  );
  const module = await load(thinEntry(shaped));
  module.default.scheduled("controller", "env", "ctx");
  assert.deepEqual(module.calls, [["scheduled", "controller", "env", "ctx"]]);
  assert.throws(() => module.default.scheduled("trap", "env", "ctx"), WebAssembly.RuntimeError);
  assert.equal(module.calls.at(-1), "marked");
  // A worker without one has none.
  assert.equal((await load(thinEntry(SHAPED))).default.scheduled, undefined);
});

test("names that begin with `$` (esbuild gives them too) are found as any other", async () => {
  // The entry's class `$` and its Proxy `$t`, as esbuild named them in one build.
  const renamed = [
    ["var U=", "var $="],
    ["};U.prototype", "};$.prototype"],
    ["lt=new Proxy(U,B)", "$t=new Proxy($,B)"],
    ["lt as default", "$t as default"],
  ].reduce((code, [from, to]) => code.split(from).join(to), SHAPED);
  const module = await load(thinEntry(renamed));
  assert.equal(module.default.fetch("req", "env", "ctx"), "answer to req");
});

test("a trap marks the instance and is rethrown; the next request reinitializes first", async () => {
  const module = await load(thinEntry(SHAPED));
  assert.throws(() => module.default.fetch("trap", "env", "ctx"), WebAssembly.RuntimeError);
  assert.deepEqual(module.calls.at(-1), "marked");
  const original = console.log;
  console.log = () => {};
  try {
    assert.equal(module.default.fetch("next", "env", "ctx"), "answer to next");
  } finally {
    console.log = original;
  }
  assert.deepEqual(module.calls.slice(-2), ["reinitialized", ["fetch", "next", "env", "ctx"]]);
});

test("the futures queue runs its callback from a promise reaction, in order, not through queueMicrotask", async (t) => {
  const module = await load(thinEntry(SHAPED));
  const queueMicrotask = t.mock.method(globalThis, "queueMicrotask");
  const order = [];
  module.imports[QUEUE](() => order.push("first"));
  module.imports[QUEUE](() => order.push("second"));
  order.push("sync");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(order, ["sync", "first", "second"]);
  assert.equal(queueMicrotask.mock.callCount(), 0);
  // The getter wasm-bindgen asks whether queueMicrotask exists is left alone.
  assert.equal(module.imports.__wbg_queueMicrotask_1e8503a8a690f0a3(globalThis), globalThis.queueMicrotask);
});

test("a trap in a queued run marks the instance, as one in a call does", async () => {
  const module = await load(thinEntry(SHAPED));
  module.imports[QUEUE](() => {
    throw new WebAssembly.RuntimeError("unreachable");
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(module.calls.at(-1), "marked");
});

test("the Durable Object classes keep their Proxies", () => {
  assert.match(thinEntry(SHAPED), /ht=new Proxy\(ot,B\)/);
});

test("a module of another shape fails with what was not found", () => {
  assert.throws(() => thinEntry(SHAPED.replace("lt=new Proxy(U,B)", "lt=U")), /the entry's Proxy: expected once .* found 0 times/);
  assert.throws(() => thinEntry(SHAPED.replace("Reinitializing", "Restarting")), /reinitializes a trapped instance/);
  assert.throws(() => thinEntry(SHAPED.replace("lt as default", "lt as entry")), /the default export/);
  assert.throws(() => thinEntry(SHAPED.replace("{queueMicrotask(e)}", "{globalThis.queueMicrotask(e)}")), /queueMicrotask/);
  assert.throws(() => thinEntry(thinEntry(SHAPED)), /the entry's Proxy/, "twice");
});

test("the built worker's entry is the thin one", { skip: !exists("build/index.js") && "no build" }, () => {
  const built = readFileSync(new URL("../../../build/index.js", import.meta.url), "utf8");
  assert.match(built, /=\{fetch\(request,env,ctx\)\{[\w$]+\(\);try\{return [\w$]+\(request,env,ctx\)\}catch\(error\)/);
  // Its Cron Trigger's handler (the uploads' sweep) too.
  assert.match(built, /,scheduled\(controller,env,ctx\)\{[\w$]+\(\);try\{return [\w$]+\(controller,env,ctx\)\}catch\(error\)/);
  assert.match(built, /__wbg_queueMicrotask_[0-9a-f]+:function\(([\w$]+)\)\{Promise\.resolve\(\)\.then\(\1\)/);
});

function exists(relative) {
  try {
    readFileSync(new URL(`../../../${relative}`, import.meta.url));
    return true;
  } catch {
    return false;
  }
}
