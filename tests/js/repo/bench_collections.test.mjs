// The collections counted apart by the instruction scripts (bench/lib/collections.mjs): on a
// callgrind file of the shape Valgrind writes (names compressed after their first use, a call's
// inclusive cost on the line after `calls=`), only calls into V8's collector from outside it
// count, each once, whoever makes them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { collectionsIn } from "../../../bench/lib/collections.mjs";

const COLLECT = "v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason)";
const LAMBDA = "v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason)::$_3::operator()() const";

const FILE = [
  "version: 1",
  "events: Ir",
  // An allocation that triggers a scavenge (1,000 with all it does).
  "fn=(1) v8::internal::Heap::AllocateRaw(int)",
  "0 50",
  `cfn=(2) ${COLLECT}`,
  "calls=1 0",
  "0 1000",
  // Its own work: through the stack scanner's trampoline into its lambda, inside the 1,000 above.
  "fn=(2)",
  "0 100",
  "cfn=(6) heap::base::Stack::SetMarkerAndCallback(void const*)",
  "calls=1 0",
  "0 900",
  "fn=(6)",
  "0 20",
  `cfn=(3) ${LAMBDA}`,
  "calls=1 0",
  "0 880",
  // Another caller, met later with a compressed name: 250 more.
  "fn=(4) workerd::jsg::Lock::runMicrotasks()",
  "0 10",
  "cfn=(2)",
  "calls=2 0",
  "0 250",
  // A call to something else costs nothing here.
  "cfn=(5) v8::internal::Heap::Scavenge()",
  "calls=1 0",
  "0 70",
  "",
  "totals: 1460",
].join("\n");

test("calls into the collector from outside it count once each", () => {
  assert.equal(collectionsIn(FILE), 1250);
});

test("a file without a collection counts none", () => {
  assert.equal(collectionsIn("events: Ir\nfn=(1) main\n0 12\ntotals: 12\n"), 0);
});
