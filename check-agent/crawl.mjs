// check-agent's reading of an agent's tree (protocol 5, docs/agent-protocol.md, "Branches"), as a
// client reads it: a new socket's `init`, then `history` frames with `leaf` for every message its
// pages name as a sibling and every message the checker knows the agent stored, until nothing new.
// What it found is judged against what the checker knows (`Known`: every message the agent said it
// stored, under the ids the checker sent, with the parents the agent reported, in the order they
// were stored) and against check-agent's model of the contract's words (./tree_model.mjs):
//
// - R-keep: every message ever stored is still read (unless the history answers are wrong: that is
//   R-history-request's, and R-keep is then not judged);
// - R-ref: refs well-formed, an assistant's its id, one message per ref for good, parents that
//   never change;
// - R-siblings: a message lists its siblings (its own among them, oldest first) whenever two or
//   more messages read follow the same one;
// - R-history-request: a `leaf` page is the branch through that message to its newest descendant;
//   a message the agent names is never `not_found`;
// - R-current: `init` is the path to the newest message stored;
// - R-init-bounds: `init` and every page within 200 messages and 3 MiB.
import { askHistory, initMessages, MAX_PAGE_BYTES, MAX_PAGE_MESSAGES, outOfBounds, pageBytes, refsOf } from "./history.mjs";
import { branchThrough, newestOf, pathTo } from "./tree_model.mjs";
import { show } from "./frames.mjs";

/** R-ref's shape of a ref: 1 to 128 characters of `[A-Za-z0-9._:~-]`. */
const REF = /^[A-Za-z0-9._:~-]{1,128}$/;

/** At most this many `history` frames in one reading: a checker's conversation has a few dozen
 * messages, so more means an agent that names refs without end. */
const MOST_REQUESTS = 200;

/** What the checker knows the agent stored. */
export class Known {
  constructor() {
    this.byRef = new Map();
  }

  get tree() {
    return [...this.byRef.values()];
  }

  has(ref) {
    return this.byRef.has(ref);
  }

  get(ref) {
    return this.byRef.get(ref);
  }

  /** Records a message the agent stored after every one known: `{ ref, id, role, parent, text }`. */
  add(message) {
    this.byRef.set(message.ref, { ...message, seq: this.byRef.size + 1 });
  }

  newest() {
    return newestOf(this.tree);
  }
}

/** Reads session `label`'s tree on a new socket. `turnIds`: replies to find too (a reply's ref is
 * its turnId, unless its listing says otherwise). Resolves to `{ init, listed, conflicts, pages,
 * named, lost }`: `init` the init's messages (null: no init), `listed` every message read by ref,
 * `pages` the `leaf` pages answered, `lost` the refs answered with no page. */
export async function crawl(ctx, label, known, turnIds = []) {
  const conn = await ctx.join(label);
  try {
    const found = { init: conn.init ? initMessages(conn.init) : null, listed: new Map(), conflicts: [], pages: [], named: new Set(), lost: [] };
    take(found, found.init ?? []);
    const asked = new Set();
    const unread = (ref) => typeof ref === "string" && !found.listed.has(ref) && !asked.has(ref);
    for (let i = 0; i < MOST_REQUESTS; i++) {
      const replies = turnIds.filter((id) => !listedWithId(found, id));
      const leaf = [...found.named].find(unread) ?? known.tree.map((m) => m.ref).find(unread) ?? replies.find(unread);
      if (leaf === undefined) break;
      asked.add(leaf);
      const { answer, messages } = await askHistory(conn, { leaf });
      if (messages) {
        found.pages.push({ leaf, messages });
        take(found, messages);
      } else found.lost.push({ ref: leaf, named: found.named.has(leaf), answer });
    }
    return found;
  } finally {
    conn.close();
  }
}

/** Adds `messages` to what `found` read, noting a ref read twice with another id, role or parent. */
function take(found, messages) {
  for (const m of messages) {
    const had = found.listed.get(m.ref);
    if (had && (had.id !== m.id || had.role !== m.role || (had.parent ?? null) !== (m.parent ?? null))) {
      found.conflicts.push(`ref ${show(m.ref)} listed as ${show(brief(had))} and as ${show(brief(m))}`);
    }
    if (!had) found.listed.set(m.ref, m);
    for (const ref of Array.isArray(m.siblings) ? m.siblings : []) found.named.add(ref);
  }
}

const brief = (m) => ({ id: m.id, role: m.role, parent: m.parent });

/** The listed message of id `id` (a reply: its turnId), if any was read. */
export const listedWithId = (found, id) => [...found.listed.values()].find((m) => m.id === id);

/** The tree as read, each message in the checker's order of storing (unknown ones last). */
function readTree(found, known) {
  return [...found.listed.values()].map((m) => ({ ref: m.ref, id: m.id, role: m.role, parent: m.parent ?? null, seq: known.get(m.ref)?.seq ?? Number.MAX_SAFE_INTEGER }));
}

/** Judges what `crawl` found against `known` (every message of which is stored by now), after
 * `what` (a step of the scenario, in words). Returns what the agent holds as far as the checker
 * can tell: the known messages it read (all it knows when its history answers are wrong), which
 * is where its next turn attaches. */
export function judgeTree(ctx, known, found, what) {
  const read = readTree(found, known);
  const historyWrong = judgePages(ctx, found, read, what);
  judgeKept(ctx, known, found, what, historyWrong);
  judgeRefs(ctx, known, found, what);
  judgeSiblings(ctx, known, found, read, what);
  judgeCurrent(ctx, known, found, what);
  return historyWrong ? known.tree : known.tree.filter((m) => found.listed.has(m.ref));
}

/** R-history-request: every `leaf` page is the branch through its message to the newest message
 * read after it; a ref the agent named got a page. Returns whether a history answer was wrong. */
function judgePages(ctx, found, read, what) {
  for (const { leaf, messages } of found.pages) {
    const expected = refsOf(branchThrough(read, leaf)).slice(-MAX_PAGE_MESSAGES);
    if (JSON.stringify(refsOf(messages)) !== JSON.stringify(expected)) {
      const wanted = expected.length ? `the branch through it to its newest descendant is ${show(expected)}` : "a page without it";
      ctx.judge("R-history-request", "fail", { arrived: `after ${what}: history {"leaf":${show(leaf)}} answered ${show(refsOf(messages))}, ${wanted}` });
      return true;
    }
    const bounds = outOfBounds(messages);
    if (bounds) ctx.judge("R-init-bounds", "fail", { arrived: `after ${what}: a history answer of ${bounds}` });
  }
  const unanswered = found.lost.find((l) => l.named);
  if (unanswered) {
    ctx.judge("R-history-request", "fail", { arrived: `after ${what}: history {"leaf":${show(unanswered.ref)}}, a ref the agent lists as a sibling, answered ${show(unanswered.answer)}` });
    return true;
  }
  if (found.pages.length) ctx.judge("R-history-request", "pass");
  return false;
}

/** R-keep: every message the agent ever stored is read. */
function judgeKept(ctx, known, found, what, historyWrong) {
  const gone = known.tree.filter((m) => !found.listed.has(m.ref));
  if (gone.length === 0) return ctx.judge("R-keep", "pass");
  const first = gone[0];
  const answer = found.lost.find((l) => l.ref === first.ref)?.answer;
  const arrived = `after ${what}: ${gone.length} message(s) stored before are not read any more, ${show(first.id)} (ref ${show(first.ref)}) among them: history {"leaf":${show(first.ref)}} answered ${show(answer)}`;
  if (historyWrong) return ctx.judge("R-keep", "skip", { arrived: `${arrived}; the history answers are wrong (R-history-request), so what is kept cannot be read` });
  ctx.judge("R-keep", "fail", { arrived });
}

/** R-ref: each ref well-formed, an assistant message's its id, a parent null or a ref; a ref names
 * one message for good (its role and parent never change). */
function judgeRefs(ctx, known, found, what) {
  const problems = [...found.conflicts];
  for (const m of found.listed.values()) {
    if (typeof m.ref !== "string" || !REF.test(m.ref)) problems.push(`${m.role} ${show(m.id)} has ref ${show(m.ref)}`);
    else if (m.role === "assistant" && m.ref !== m.id) problems.push(`the assistant message ${show(m.id)} has ref ${show(m.ref)}, not its id`);
    if (m.parent !== null && typeof m.parent !== "string") problems.push(`${show(m.ref)} has parent ${show(m.parent)}`);
    const had = known.get(m.ref);
    if (had && (had.role !== m.role || had.parent !== (m.parent ?? null))) {
      problems.push(`ref ${show(m.ref)}, the ${had.role} message after ${show(had.parent)}, is now the ${m.role} message after ${show(m.parent)}`);
    }
  }
  ctx.judge("R-ref", problems.length ? "fail" : "pass", { arrived: `after ${what}: ${problems[0]}` });
}

/** R-siblings: a message lists the refs of the messages read that follow the same one, its own
 * among them, oldest first, whenever there are two or more. */
function judgeSiblings(ctx, known, found, read, what) {
  for (const m of found.listed.values()) {
    const expected = read.filter((r) => r.parent === (m.parent ?? null)).sort((a, b) => a.seq - b.seq).map((r) => r.ref);
    const listed = Array.isArray(m.siblings) ? m.siblings : [];
    const shown = listed.filter((ref) => expected.includes(ref));
    const wrong = expected.length >= 2 ? JSON.stringify(shown) !== JSON.stringify(expected) : listed.length > 0 && !listed.includes(m.ref);
    if (wrong) {
      return ctx.judge("R-siblings", "fail", { arrived: `after ${what}: ${m.role} ${show(m.id)} (ref ${show(m.ref)}) lists siblings ${show(m.siblings)}; the messages read after ${show(m.parent ?? null)} are ${show(expected)}` });
    }
  }
  ctx.judge("R-siblings", "pass");
}

/** R-current: init is the path to the newest message stored (its newest page); R-init-bounds. */
function judgeCurrent(ctx, known, found, what) {
  if (found.init === null) return ctx.judge("R-current", "skip", { arrived: "no init (R-init)" });
  const bounds = outOfBounds(found.init);
  if (bounds) ctx.judge("R-init-bounds", "fail", { arrived: `after ${what}: an init of ${bounds}` });
  else ctx.judge("R-init-bounds", "pass");
  const newest = known.newest();
  const path = newest ? refsOf(pathTo(known.tree, newest.ref)) : [];
  const listed = refsOf(found.init);
  const suffix = listed.length > 0 && JSON.stringify(path.slice(-listed.length)) === JSON.stringify(listed);
  // Fewer messages than the page holds only when the next older one would pass the bytes bound.
  const older = found.listed.get(found.init[0]?.parent);
  const whole = listed.length >= Math.min(path.length, MAX_PAGE_MESSAGES) || !older || pageBytes([older, ...found.init]) > MAX_PAGE_BYTES;
  ctx.judge("R-current", (path.length === 0 ? listed.length === 0 : suffix && whole) ? "pass" : "fail", {
    arrived: `after ${what}: init lists ${show(listed)}, the path to the newest message (${show(newest?.ref)}) is ${show(path)}`,
  });
}
