// scripts/check-circles.mjs on tiny crates written to a temp dir: a circle through a `use`, a
// grouped `use` and a path in code is found, exactly, with nothing else; the same crate with the
// shared item moved below both sides has none; `mod x;`, comments, strings and test files make
// no edges; two folders that import from each other through different files are a folder
// circle; a path through a name the crate root imports from another crate is no edge.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildGraph, findCircles, folderGraph } from "../../../scripts/check-circles.mjs";

/** The graph of a crate made of `files` (path → text), in a temp dir. */
function crate(t, files) {
  const dir = mkdtempSync(join(tmpdir(), "check-circles-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return buildGraph(dir);
}

const common = {
  "lib.rs": "mod a;\nmod b;\nmod c;\nmod shared;\n// crate::c::Z in a comment\n",
  "b.rs": "use super::{c::{self, Z}, shared as s};\npub fn g() -> Z { c::make() }\n",
  "c.rs": 'pub struct Z;\npub fn make() -> Z { let _ = "crate::a::f"; Z }\n',
  "shared.rs": "pub const K: u32 = 1;\n",
  "a/mod.rs": "mod inner;\nmod tests;\n",
  "a/inner.rs": "pub fn h() {}\n",
  // Test code importing what it tests makes no edge.
  "a/tests.rs": "use crate::b::g;\n",
  "c_tests.rs": "use crate::a::f;\n",
};

test("a circle a → b → c → a is found, with none of the files outside it", (t) => {
  const circles = findCircles(crate(t, {
    ...common,
    "a/mod.rs": "mod inner;\nmod tests;\npub use inner::h;\npub fn f() -> u32 { crate::b::g(); 0 }\n",
    "c.rs": "pub struct Z;\npub fn make() -> Z { let _ = crate::a::f(); Z }\n",
  }));
  assert.deepEqual(circles, [["a/mod.rs", "b.rs", "c.rs"]]);
});

test("the same crate with the shared item moved below both sides has no circle", (t) => {
  const graph = crate(t, {
    ...common,
    "a/mod.rs": "mod inner;\nmod tests;\npub use inner::h;\npub fn f() -> u32 { crate::b::g(); crate::shared::K }\n",
    "c.rs": 'pub struct Z;\n/// [crate::a::f]\npub fn make() -> Z { let _ = ("crate::a::f", super::shared::K); Z }\n',
  });
  assert.deepEqual(findCircles(graph), []);
  const edges = (file) => [...graph.get(file).keys()].sort();
  assert.deepEqual(edges("a/mod.rs"), ["a/inner.rs", "b.rs", "shared.rs"]);
  assert.deepEqual(edges("b.rs"), ["c.rs", "shared.rs"]);
  assert.deepEqual(edges("c.rs"), ["shared.rs"]);
  assert.deepEqual(edges("a/tests.rs"), []);
  assert.deepEqual(edges("c_tests.rs"), []);
});

test("a parent and a child that import from each other are a circle; `mod x;` alone is not", (t) => {
  const files = {
    "lib.rs": "mod v;\n",
    "v.rs": "mod plain;\npub struct Frame;\n",
    "v/plain.rs": "use super::Frame;\n",
  };
  assert.deepEqual(findCircles(crate(t, files)), []);
  const circles = findCircles(crate(t, {
    ...files,
    "v.rs": "mod plain;\npub(crate) use plain::plain_len;\npub struct Frame;\n",
  }));
  assert.deepEqual(circles, [["v.rs", "v/plain.rs"]]);
});

test("an inline #[cfg(test)] module makes no edge", (t) => {
  const circles = findCircles(crate(t, {
    "lib.rs": "mod a;\nmod b;\n",
    "a.rs": "use crate::b::B;\npub struct A;\n",
    "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n    fn f() { let _ = A; }\n}\n",
  }));
  assert.deepEqual(circles, []);
});

test("two folders that import from each other through different files are a folder circle", (t) => {
  const files = {
    "lib.rs": "mod session;\nmod translator;\n",
    "session/mod.rs": "mod history;\npub struct Init;\n",
    "session/history.rs": "use crate::translator::Ending;\n",
    "translator/mod.rs": "mod ending;\npub use ending::Ending;\nuse crate::session::Init;\n",
    "translator/ending.rs": "pub struct Ending;\n",
  };
  const graph = crate(t, files);
  assert.deepEqual(findCircles(graph), [], "no file circle");
  assert.deepEqual(findCircles(folderGraph(graph)), [["session", "translator"]]);
  // history moved out, above both: no folder circle either.
  const { "session/history.rs": _, ...rest } = files;
  const moved = crate(t, {
    ...rest,
    "lib.rs": "mod history;\nmod session;\nmod translator;\n",
    "session/mod.rs": "pub struct Init;\n",
    "history.rs": "use crate::translator::Ending;\nuse crate::session::Init;\n",
  });
  assert.deepEqual(findCircles(folderGraph(moved)), []);
});

test("a path through a name the crate root imports from another crate makes no edge", (t) => {
  const graph = crate(t, {
    "lib.rs": "mod chat;\nuse other_core::{config, v2 as frames};\nuse other_platform as platform;\npub fn entry() { chat::run() }\n",
    "chat.rs": "use crate::config::Config;\nuse crate::frames::Frame;\npub fn run() { crate::platform::now(); }\n",
  });
  assert.deepEqual([...graph.get("chat.rs").keys()], []);
  assert.deepEqual(findCircles(graph), []);
  // The same paths to the crate root's own items are edges, and make a circle with it.
  const own = crate(t, {
    "lib.rs": "mod chat;\npub struct Config;\npub fn entry() { chat::run() }\n",
    "chat.rs": "use crate::Config;\npub fn run() {}\n",
  });
  assert.deepEqual(findCircles(own), [["chat.rs", "lib.rs"]]);
});
