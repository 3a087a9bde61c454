// The numbers JavaScript and Rust pass each other across the WebAssembly boundary have one name
// on each side, and the two copies agree: the pump's event kinds (crates/adapter/src/pump/wiring.js ↔
// wiring.rs) and the upstream failure kinds (crates/adapter/src/agent/upstream.js ↔ upstream.rs). Every constant
// a side exports has its twin on the other, with the same value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as wiring from "../../../crates/adapter/src/pump/wiring.js";
import * as upstream from "../../../crates/adapter/src/agent/upstream.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The `const NAME: u32 = N;` of a Rust file, as { NAME: N }. */
function rustConstants(file) {
  const text = readFileSync(path.join(root, file), "utf8");
  return Object.fromEntries([...text.matchAll(/^(?:pub(?:\([a-z]+\))? )?const ([A-Z_]+): u32 = (\d+);/gm)].map(([, name, value]) => [name, Number(value)]));
}

/** The exported number constants of a JavaScript module, as { NAME: N }. */
const jsConstants = (module) => Object.fromEntries(Object.entries(module).filter(([name, value]) => /^[A-Z_]+$/.test(name) && typeof value === "number"));

test("the pump's event kinds: wiring.js and wiring.rs name the same numbers", () => {
  const js = jsConstants(wiring);
  assert.equal(Object.keys(js).length, 7);
  assert.deepEqual(rustConstants("crates/adapter/src/pump/wiring.rs"), js);
});

test("a log line's detail is cut at the same length by the JavaScript that writes lines and the core", () => {
  const rust = readFileSync(path.join(root, "crates/core/src/diagnostic.rs"), "utf8").match(/^pub const MAX_DETAIL_CHARS: usize = (\d+);/m)[1];
  for (const file of ["crates/adapter/src/pump/wiring.js", "crates/adapter/src/watchdog.js", "crates/adapter/src/index/stub.js"]) {
    const js = readFileSync(path.join(root, file), "utf8").match(/^const MAX_DETAIL_CHARS = (\d+);/m)?.[1];
    assert.equal(js, rust, file);
  }
});

test("a turn's write to its user's index, and an agent's title, are the operations the core's wire names", () => {
  for (const name of ["TOUCH", "TITLE", "ENLIST", "ENLISTED"]) {
    const js = readFileSync(path.join(root, "crates/adapter/src/index/stub.js"), "utf8").match(new RegExp(`^const ${name} = "(\\w+)";`, "m"))[1];
    const rust = readFileSync(path.join(root, "crates/core/src/conversations/wire.rs"), "utf8").match(new RegExp(`^pub const ${name}: &str = "(\\w+)";`, "m"))[1];
    assert.equal(js, rust, name);
  }
});

test("the upstream failure kinds: upstream.js and upstream.rs name the same numbers", () => {
  const js = jsConstants(upstream);
  assert.equal(Object.keys(js).length, 8);
  assert.deepEqual(rustConstants("crates/adapter/src/agent/upstream.rs"), js);
});

test("the ping and the pong (R-pong) are the same bytes in the core, the SessionAgent library, check-agent and the fixture agent", () => {
  const read = (file) => readFileSync(path.join(root, file), "utf8");
  const rust = Object.fromEntries([...read("crates/core/src/v2.rs").matchAll(/^pub const (PING|PONG): &str = r#"(.*)"#;/gm)].map(([, name, value]) => [name, value]));
  assert.deepEqual(rust, { PING: '{"type":"ping"}', PONG: '{"type":"pong"}' });
  for (const file of ["packages/session-agent/src/protocol.ts", "check-agent/frames.mjs", "tests/fixtures/agents/failing.js"]) {
    const js = Object.fromEntries([...read(file).matchAll(/^(?:export )?const (PING|PONG) = '(.*)';/gm)].map(([, name, value]) => [name, value]));
    assert.deepEqual(js, rust, file);
  }
});

test("forget's frames (protocol 7) are the same words in the core, the contract and the SessionAgent library, which says a protocol the adapter sends forget to", () => {
  const read = (file) => readFileSync(path.join(root, file), "utf8");
  const library = read("packages/session-agent/src/protocol.ts");
  const js = Object.fromEntries([...library.matchAll(/^export const (FORGET|FORGOTTEN) = "(\w+)";/gm)].map(([, name, value]) => [name, value]));
  // The core reads `forgotten` by its constant; it writes `forget` with serde, so its word is the contract's example.
  const forgotten = read("crates/core/src/v2.rs").match(/^pub const FORGOTTEN: &str = "(\w+)";/m)[1];
  const contract = read("docs/agent-protocol.md").split("### `forget`")[1];
  const forget = JSON.parse(contract.match(/```json\n(.*)\n```/)[1]).type;
  assert.deepEqual(js, { FORGET: forget, FORGOTTEN: forgotten });
  const said = Number(library.match(/^export const PROTOCOL = (\d+);/m)[1]);
  const needed = Number(read("crates/core/src/v2/outgoing.rs").match(/^pub const FORGET_PROTOCOL: u32 = (\d+);/m)[1]);
  assert.ok(said >= needed, `the library says protocol ${said}; the adapter sends forget from ${needed}`);
});

test("a live list's response headers are a session feed's (crates/core/src/feed/mod.rs)", () => {
  const core = readFileSync(path.join(root, "crates/core/src/feed/mod.rs"), "utf8").split("pub const RESPONSE_HEADERS")[1].split("];")[0];
  const rust = Object.fromEntries([...core.matchAll(/\("([^"]+)", "([^"]+)"\)/g)].map(([, name, value]) => [name, value]));
  const js = readFileSync(path.join(root, "crates/adapter/src/index/follow.js"), "utf8").split("const HEADERS = ")[1].split("};")[0] + "}";
  assert.deepEqual(Function(`return (${js})`)(), rust);
  assert.equal(Object.keys(rust).length, 4);
});
