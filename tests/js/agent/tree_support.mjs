// What the tests of the tree's rules share (tree.test.mjs, tree_cases.test.mjs, tree_store.test.mjs,
// ai_sdk.test.mjs): packages/session-agent/src/tree.ts and store.ts bundled for Node (esbuild, as
// ai_sdk.test.mjs bundles its bridge), a store in memory for the rules (`MemTree`), and a session
// that runs prompts on any store as the agent does: the rules say where each turn goes, its user
// message is stored when it is a new one (keys `k<n>`), then its reply (`a<n>`, n its turn).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const root = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "session-agent-tree-"));

/** `packages/session-agent/src/<file>.ts`, bundled and imported. */
export async function librarySource(file) {
  const out = path.join(dir, `${file}.mjs`);
  buildSync({ entryPoints: [path.join(root, `packages/session-agent/src/${file}.ts`)], outfile: out, format: "esm", platform: "neutral", bundle: true, logLevel: "error" });
  return import(pathToFileURL(out).href);
}

export const tree = await librarySource("tree");

/** The fixture both implementations run. */
export const CASES = (await import(pathToFileURL(path.join(root, "tests/fixtures/tree_cases.json")).href, { with: { type: "json" } })).default.cases;

/** A tree in memory: messages in the order they were stored; every question is a scan. */
export class MemTree {
  nodes = [];

  insert(key, id, role, parent) {
    const node = { key, id, role, parent, seq: this.nodes.length + 1 };
    this.nodes.push(node);
    return node;
  }

  node(key) {
    return this.nodes.find((n) => n.key === key);
  }

  newest() {
    return this.nodes.at(-1);
  }

  withId(id) {
    return this.nodes.filter((n) => n.id === id);
  }

  children(parent) {
    return this.nodes.filter((n) => n.parent === parent);
  }

  newestUnder(key) {
    // Children are stored after their parent, so one pass in order finds the whole subtree.
    let newest = this.node(key);
    if (!newest) return undefined;
    const under = new Set([key]);
    for (const node of this.nodes) {
      if (node.parent !== null && under.has(node.parent)) {
        under.add(node.key);
        newest = node;
      }
    }
    return newest;
  }
}

/** A session on `store` (a MemTree by default; any store with the rules' questions and an
 * `insert(key, id, role, parent)`): each user message's text, its turns. */
export class Session {
  constructor(store = new MemTree()) {
    this.tree = store;
    this.text = new Map();
    this.turns = 0;
    this.stored = 0;
  }

  /** One turn for a prompt of `text` with `messageId` after `branch`: its user message's key and
   * its reply's. */
  turn(messageId, branch, text) {
    const attached = tree.attach(this.tree, { messageId, branch }, (node) => this.text.get(node.key) === text);
    let user = attached.existing?.key;
    if (!user) {
      user = `k${this.stored + 1}`;
      this.tree.insert(user, messageId, "user", attached.parent);
      this.text.set(user, text);
      this.stored += 1;
    }
    this.turns += 1;
    const reply = `a${this.turns}`;
    this.tree.insert(reply, reply, "assistant", user);
    this.stored += 1;
    return { user, reply };
  }

  /** The current branch's ids. */
  current() {
    return tree.page(this.tree, {}, 200).nodes.map((n) => n.id);
  }
}
