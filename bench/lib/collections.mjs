// What V8's garbage collections cost in one callgrind file: the instructions of every call into
// `v8::internal::Heap::CollectGarbage(…)` (a scavenge or a full collection, with all it calls)
// made from outside it. A window's collections depend on the heap as the window finds it (how
// full the young generation is, what survives), not only on the turns it counts: a window of 60
// turns holds two to eight scavenges, each 1–3 M instructions, so they move a turn's count by
// 30–150k from window to window. Counting them apart leaves the work each turn does itself,
// which repeats more closely; the whole count stays the figure a goal is measured by.

/**
 * The collector's entry: a scavenge or a full collection, with everything it calls. Not the
 * lambdas named after it (`…CollectGarbage(…)::$_3::operator()`), which run inside it, reached
 * through the stack scanner's trampoline: counted, they would count it twice.
 */
const COLLECT = /^v8::internal::Heap::CollectGarbage\(v8::internal::AllocationSpace/;

/**
 * The instructions spent in collections in callgrind file text `text` (inclusive costs of the
 * calls into the collector from functions outside it).
 */
export function collectionsIn(text) {
  // Callgrind compresses names: `fn=(id) name` the first time, `fn=(id)` after.
  const collector = new Set();
  for (const m of text.matchAll(/^c?fn=\((\d+)\) (.*)$/gm)) {
    if (COLLECT.test(m[2]) && !m[2].includes("::$_")) collector.add(m[1]);
  }
  if (collector.size === 0) return 0;
  let caller;
  let total = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("fn=")) caller = /^fn=\((\d+)\)/.exec(line)?.[1];
    else if (line.startsWith("cfn=")) {
      const callee = /^cfn=\((\d+)\)/.exec(line)?.[1];
      // `calls=N target`, then `position inclusive-cost`.
      if (collector.has(callee) && !collector.has(caller)) total += Number(lines[i + 2].split(" ")[1]);
    }
  }
  return total;
}
