// The index object's side in JavaScript (crates/adapter/src/index/object.rs): its SQLite storage,
// a batch of statements in one call, and the operation a request carries.

/** The object's storage (`state.storage`), whose `sql` runs the statements. */
export function storageOf(state) {
  return state.storage;
}

/**
 * Runs `batch` (JSON: `[[statement, [value, …]], …]`, crates/core/src/conversations/store.rs's
 * `batch_json`) on `storage`'s SQLite in one transaction, and returns each statement's rows as
 * JSON (`[[[column, …], …], …]`); on a failure nothing of the batch is kept, and it throws the
 * error's message.
 */
export function runBatch(storage, batch) {
  try {
    const statements = JSON.parse(batch);
    return JSON.stringify(storage.transactionSync(() => statements.map(([statement, values]) => storage.sql.exec(statement, ...values).raw().toArray())));
  } catch (error) {
    throw String(error?.message ?? error);
  }
}

/**
 * The operation `request` carries (crates/adapter/src/index/stub.js writes it): its name, a
 * newline, and its body, which the URL's query holds percent-encoded.
 */
export function opOf(request) {
  const url = new URL(request.url);
  return `${url.pathname.slice(1)}\n${decodeURIComponent(url.search.slice(1))}`;
}

/** The object's answer: `body` (JSON, or a failure's text) with `status`; no body for a 204 or a 404. */
export function answer(status, body) {
  return new Response(status === 204 || status === 404 ? null : body, { status });
}

/** How many list feeds hold a socket to the object (its sockets tagged `tag`). */
export function followers(state, tag) {
  return state.getWebSockets(tag).length;
}

/**
 * A list feed's socket to the object, kept through hibernation (`acceptWebSocket`, tagged
 * `tag`): `101` with the worker's end; `429` when `max` are open already.
 */
export function follow(state, tag, max) {
  if (state.getWebSockets(tag).length >= max) return new Response(null, { status: 429 });
  const [client, server] = Object.values(new WebSocketPair());
  state.acceptWebSocket(server, [tag]);
  return new Response(null, { status: 101, webSocket: client });
}

/** `event` sent to every list feed's socket (tagged `tag`); one that fails is the feed's end. */
export function tell(state, tag, event) {
  for (const socket of state.getWebSockets(tag)) {
    try {
      socket.send(event);
    } catch {
      // closed meanwhile: its webSocketClose comes
    }
  }
}

/** The worker's pings answered without waking the object (the runtime's auto-response). */
export function answerPings(state, ping, pong) {
  state.setWebSocketAutoResponse(new WebSocketRequestResponsePair(ping, pong));
}

/** A socket the worker closed, closed back (a code the sender may not send becomes 1000). */
export function closeBack(socket, code, reason) {
  try {
    socket.close(code === 1005 || code === 1006 || code === 1015 ? 1000 : code, reason);
  } catch {
    // closed already
  }
}
