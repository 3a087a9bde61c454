// The worker's side of the index (crates/adapter/src/index/stub.rs): an operation sent to one
// user's object (crates/adapter/src/index/object.js reads it), as a list route asks it, a turn
// tells it (and, the list's first time, the retention's directory) or the retention's run asks it.

/** The object's URL; only its path (the operation) and its query (the body) are read. */
const ORIGIN = "https://session-index/";

/** The operation a turn sends, and an agent's title (crates/core/src/conversations/wire.rs's
 * `TOUCH`, `TITLE`). */
const TOUCH = "touch";
const TITLE = "title";

/** As crates/core/src/diagnostic.rs's `MAX_DETAIL_CHARS`: the longest detail a log line carries. */
const MAX_DETAIL_CHARS = 300;

/** `op` with `body` sent to `owner`'s object of `namespace`: its answer. */
function send(namespace, owner, op, body) {
  const stub = namespace.get(namespace.idFromName(owner));
  return stub.fetch(`${ORIGIN}${op}?${encodeURIComponent(body)}`);
}

/**
 * A list route's operation: the object's answer as the worker's (JSON, never cached), or `null`
 * for its 404 (a session the list does not hold). Rejects with text when the object fails.
 */
export function askIndex(namespace, owner, op, body) {
  return (async () => {
    const answer = await send(namespace, owner, op, body);
    if (answer.status === 404) return null;
    if (!answer.ok) throw new Error(`the index answered ${answer.status}: ${await answer.text()}`);
    const json = answer.status !== 204;
    const headers = json ? { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } : { "cache-control": "no-store" };
    return new Response(json ? answer.body : null, { status: answer.status, headers });
  })().catch((error) => {
    throw String(error?.message ?? error);
  });
}

/**
 * An operation of the retention's run (crates/adapter/src/retention.rs) sent to the object named
 * `name` (a list, or the directory): resolves with [its status, its body's text]; rejects with
 * text when the call fails.
 */
export function askText(namespace, name, op, body) {
  return (async () => {
    const answer = await send(namespace, name, op, body);
    return [answer.status, await answer.text()];
  })().catch((error) => {
    throw String(error?.message ?? error);
  });
}

/** The directory's name and its operation (crates/core/src/conversations/retention.rs, wire.rs). */
const DIRECTORY = "directory";
const ENLIST = "enlist";
const ENLISTED = "enlisted";

/**
 * A turn told to `owner`'s object of `env[binding]` (its `touch`, `body`), once the handler has
 * handed the runtime its response: the turn's first byte never waits for it. `false`: the
 * worker has no such binding, and nothing is sent.
 */
export function touchIndex(env, ctx, binding, owner, body, requestId) {
  const namespace = env[binding];
  if (namespace === undefined) return false;
  later(ctx, requestId, async () => {
    const answer = await send(namespace, owner, TOUCH, body);
    if (answer.status === 201) {
      // The list is not in the retention's directory yet: put it there with its oldest
      // activity, then tell the list (a failure is tried again at its next turn).
      const oldest = await answer.text();
      await expectDone(await send(namespace, DIRECTORY, ENLIST, `${owner}\n${oldest}`), "the directory");
      await expectDone(await send(namespace, owner, ENLISTED, ""), "the index");
      return;
    }
    await expectDone(answer, "the index");
  });
  return true;
}

/**
 * A session's title from its agent told to `owner`'s object (its `title`, `body`) once its
 * stream has ended, as a touch is told: nobody waits for it.
 */
export function titleIndex(env, ctx, binding, owner, body, requestId) {
  const namespace = env[binding];
  if (namespace === undefined) return;
  later(ctx, requestId, async () => expectDone(await send(namespace, owner, TITLE, body), "the index"));
}

/** An answer that must be `204`; else a rejection that names `who` and what it answered. */
async function expectDone(answer, who) {
  if (answer.status !== 204) throw new Error(`${who} answered ${answer.status}: ${await answer.text()}`);
}

/**
 * `write` run after a timer of 0 ms (once the handler has handed the runtime its response), kept
 * alive by `ctx.waitUntil`; a failure is one log line (`index_write`), never the request's.
 */
function later(ctx, requestId, write) {
  const done = new Promise((resolve) => setTimeout(resolve, 0))
    .then(write)
    .catch((error) => {
      const detail = String(error?.message ?? error).slice(0, MAX_DETAIL_CHARS);
      console.error(JSON.stringify({ level: "error", event: "index_write", request: requestId, detail }));
    });
  ctx.waitUntil(done);
}
