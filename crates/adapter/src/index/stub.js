// The worker's side of the index (crates/adapter/src/index/stub.rs): an operation sent to one
// user's object (crates/adapter/src/index/object.js reads it), as a list route asks it or a turn
// tells it.

/** The object's URL; only its path (the operation) and its query (the body) are read. */
const ORIGIN = "https://session-index/";

/** The operation a turn sends (crates/core/src/conversations/wire.rs's `TOUCH`). */
const TOUCH = "touch";

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
 * A turn told to `owner`'s object of `env[binding]` (its `touch`, `body`), once the handler has
 * handed the runtime its response (a timer of 0 ms): the turn's first byte never waits for it,
 * and `ctx.waitUntil` keeps the request alive until it is done. A failure is one log line
 * (`index_write`), never the turn's. `false`: the worker has no such binding, and nothing is sent.
 */
export function touchIndex(env, ctx, binding, owner, body, requestId) {
  const namespace = env[binding];
  if (namespace === undefined) return false;
  const done = new Promise((resolve) => setTimeout(resolve, 0))
    .then(() => send(namespace, owner, TOUCH, body))
    .then(async (answer) => {
      if (answer.status !== 204) throw new Error(`the index answered ${answer.status}: ${await answer.text()}`);
    })
    .catch((error) => {
      const detail = String(error?.message ?? error).slice(0, MAX_DETAIL_CHARS);
      console.error(JSON.stringify({ level: "error", event: "index_write", request: requestId, detail }));
    });
  ctx.waitUntil(done);
  return true;
}
