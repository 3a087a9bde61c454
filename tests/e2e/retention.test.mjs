// Retention (docs/sessions.md, "Retention"; `SESSION_TTL_DAYS`): the worker's Cron Trigger, run
// at a time the test sets (its `scheduledTime`), deletes every listed session idle longer than
// the setting as a user's delete does: its agent forgets it (the history is empty, a feed on it
// hears `deleted`), its files leave the bucket, its row leaves its list. Nothing before the
// cutoff, nothing without the setting, and a session whose agent cannot forget stays listed.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, until } from "./harness.mjs";
import { openFeed } from "./feed.mjs";

const DAY = 24 * 3_600_000;

const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));
async function start(options) {
  const worker = await startWorker(options);
  workers.push(worker);
  return worker;
}

let keys = 0;
const newKey = () => ({ "x-conversations-key": `retention-${process.pid}-${(keys += 1)}-${Date.now()}` });

/** A turn of `session` in the list `key`, read to its end. */
async function turn(base, session, key) {
  const response = await postChat(base, session, chatBody("/slow 1 1"), { headers: { "content-type": "application/json", ...key } });
  assert.equal(response.status, 200);
  await readAll(response);
}

const listIds = async (base, key) => (await (await fetch(`${base}/api/sessions?limit=100`, { headers: key })).json()).sessions.map((s) => s.id).sort();
const history = async (base, session) => (await fetch(`${base}/api/sessions/${session}/messages`)).json();

/** Until `key`'s list holds `ids` (a turn's write, and its list's first time the directory's, land after the turn). */
const listed = (base, key, ids) => until(async () => JSON.stringify(await listIds(base, key)) === JSON.stringify([...ids].sort()), `listed: ${ids}`).then(() => true);

describe("SESSION_TTL_DAYS = 1", () => {
  test("sessions idle past a day are deleted at the trigger's clock, and not before; a list is enlisted again at its next turn", { timeout: 60_000 }, async () => {
    const worker = await start({ vars: { SESSION_TTL_DAYS: "1" } });
    const [mine, theirs] = [newKey(), newKey()];
    const [a, b, c] = [sessionId("kept-a"), sessionId("kept-b"), sessionId("kept-c")];
    const startedAt = Date.now();
    await turn(worker.base, a, mine);
    await turn(worker.base, b, mine);
    await turn(worker.base, c, theirs);
    // A file of b's, and a feed open on a.
    const photo = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(100, 7)]);
    const upload = await fetch(`${worker.base}/api/sessions/${b}/files`, { method: "POST", headers: { "content-type": "image/png" }, body: photo });
    assert.equal(upload.status, 201);
    const { url } = await upload.json();
    await listed(worker.base, mine, [a, b]);
    await listed(worker.base, theirs, [c]);
    const feed = await openFeed(worker.base, a);
    await feed.until((e) => e.type === "sync", "sync");

    // An hour before the day is over: nothing.
    await worker.scheduled(startedAt + DAY - 3_600_000);
    assert.deepEqual(await listIds(worker.base, mine), [a, b].sort());
    assert.equal((await history(worker.base, a)).length, 2);
    assert.equal((await fetch(url)).status, 200);

    // An hour after it: every session of both lists, as a delete deletes it.
    await worker.scheduled(Date.now() + DAY + 3_600_000);
    assert.deepEqual(await listIds(worker.base, mine), []);
    assert.deepEqual(await listIds(worker.base, theirs), []);
    for (const session of [a, b, c]) assert.deepEqual(await history(worker.base, session), [], `${session} forgotten`);
    assert.equal((await fetch(url)).status, 404, "its file deleted");
    await feed.until((e) => e.type === "deleted", "deleted");
    await until(() => worker.diagnostics.some((d) => d.event === "session_expiry" && /^3 session\(s\) idle more than 1 day\(s\) deleted from 2 list\(s\); 0 failed/.test(d.detail)), "the run's line");

    // The list, empty, left the directory: its next session puts it back, and a later run finds it.
    const d = sessionId("kept-d");
    await turn(worker.base, d, mine);
    await listed(worker.base, mine, [d]);
    await worker.scheduled(Date.now() + 2 * DAY);
    assert.deepEqual(await listIds(worker.base, mine), []);
    assert.deepEqual(await history(worker.base, d), []);
  });

  test("a session whose agent cannot forget stays listed, and the others of the run go", { timeout: 60_000 }, async () => {
    const worker = await start({ vars: { SESSION_TTL_DAYS: "1" } });
    const key = newKey();
    const [old, fine] = [sessionId("proto4-retention"), sessionId("fine")];
    await turn(worker.base, old, key);
    await turn(worker.base, fine, key);
    await listed(worker.base, key, [old, fine]);
    await worker.scheduled(Date.now() + 2 * DAY);
    assert.deepEqual(await listIds(worker.base, key), [old]);
    assert.equal((await history(worker.base, old)).length, 2, "its messages stay with it");
    assert.deepEqual(await history(worker.base, fine), []);
    await until(() => worker.diagnostics.some((d) => d.event === "session_expiry" && d.detail.includes("agent_cannot_forget")), "the failure's line");
  });
});

test("without SESSION_TTL_DAYS nothing is deleted, however late the trigger", { timeout: 60_000 }, async () => {
  const worker = await start({});
  const key = newKey();
  const session = sessionId("forever");
  await turn(worker.base, session, key);
  await listed(worker.base, key, [session]);
  await worker.scheduled(Date.now() + 3_650 * DAY);
  assert.deepEqual(await listIds(worker.base, key), [session]);
  assert.equal((await history(worker.base, session)).length, 2);
});

test("a SESSION_TTL_DAYS that is no whole number of days from 1 to 3650 is a 500 misconfigured", { timeout: 30_000 }, async () => {
  const worker = await start({ vars: { SESSION_TTL_DAYS: "0.5" } });
  const response = await fetch(`${worker.base}/api/sessions`, { headers: newKey() });
  assert.equal(response.status, 500);
  assert.equal((await response.json()).error.code, "misconfigured");
});
