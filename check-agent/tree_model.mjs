// check-agent's model of the tree of protocol 5, written from docs/agent-protocol.md's words
// ("Branches") and not from an agent's code: where a prompt's turn attaches, the current branch, a
// message's branch to its newest descendant, siblings. The checker judges an agent's answers
// against it (./branches.mjs, ./crawl.mjs); tests/js/agent/tree_cases.test.mjs holds it to the
// cases the Rust core and the TypeScript library run (tests/fixtures/tree_cases.json).
//
// A tree is a list of messages `{ ref, id, role, parent, seq, text }`: `parent` the ref it follows
// (null: a first message), `seq` its place in the order of storing (larger is newer), `text` what a
// user message says (its content, compared for a regenerate). Every function reads whole paths,
// plainly: a conversation a checker builds has tens of messages.

/** The messages of `tree` by ref. */
const byRef = (tree) => new Map(tree.map((m) => [m.ref, m]));

/** The path from the conversation's first message to `ref`, oldest first ([] for an unknown ref). */
export function pathTo(tree, ref) {
  const refs = byRef(tree);
  const path = [];
  for (let at = refs.get(ref); at; at = at.parent === null ? undefined : refs.get(at.parent)) path.unshift(at);
  return path;
}

/** The newest of `messages` (undefined when there is none). */
export const newestOf = (messages) => messages.reduce((newest, m) => (newest === undefined || m.seq > newest.seq ? m : newest), undefined);

/** The current branch: the path to the newest message. */
export const currentBranch = (tree) => (tree.length ? pathTo(tree, newestOf(tree).ref) : []);

/** The messages that follow `ref` directly or not. */
function descendants(tree, ref) {
  return tree.filter((m) => m.ref !== ref && pathTo(tree, m.ref).some((on) => on.ref === ref));
}

/** The branch through `ref` to its newest descendant (itself when nothing follows it). */
export function branchThrough(tree, ref) {
  const end = newestOf(descendants(tree, ref)) ?? byRef(tree).get(ref);
  return end ? pathTo(tree, end.ref) : [];
}

/** The refs of the messages that follow what `message` follows, its own among them, oldest first,
 * when there are two or more; else []. */
export function siblingsOf(tree, message) {
  const all = tree.filter((m) => m.parent === message.parent).sort((a, b) => a.seq - b.seq);
  return all.length >= 2 ? all.map((m) => m.ref) : [];
}

/**
 * Where a prompt's turn attaches (docs/agent-protocol.md, "Where a turn attaches"): `{ existing }`,
 * the ref of the stored user message it is a new reply to (a regenerate), or `{ parent }`, the ref
 * its new user message follows (null: a new first message).
 */
export function expectedAttach(tree, { messageId, branch = [], text }) {
  const anchor = anchorOf(tree, messageId, branch);
  const own = newestOf(tree.filter((m) => m.parent === anchor && m.role === "user" && m.id === messageId && m.text === text));
  return own ? { existing: own.ref } : { parent: anchor };
}

/** The ref the turn's user message follows (null: the root). */
function anchorOf(tree, messageId, branch) {
  // The newest id of the branch that names a stored message …
  for (let at = branch.length - 1; at >= 0; at--) {
    const named = tree.filter((m) => m.id === branch[at]);
    if (named.length === 0) continue;
    // … of several, the one whose earlier messages have the ids before it in the branch the
    // furthest back, and of those the newest.
    const before = branch.slice(0, at);
    const matched = (m) => {
      const earlier = pathTo(tree, m.ref).slice(0, -1).reverse();
      let count = 0;
      while (count < earlier.length && count < before.length && earlier[count].id === before[before.length - 1 - count]) count++;
      return count;
    };
    const best = Math.max(...named.map(matched));
    return newestOf(named.filter((m) => matched(m) === best)).ref;
  }
  // No id of the branch is stored: a first message with the prompt's id stays first; else the
  // parent of the newest user message with that id; else the newest message.
  const users = tree.filter((m) => m.role === "user" && m.id === messageId);
  if (users.some((m) => m.parent === null)) return null;
  const edited = newestOf(users);
  if (edited) return edited.parent;
  return newestOf(tree)?.ref ?? null;
}
