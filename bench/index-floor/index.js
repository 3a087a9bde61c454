// The floor of a turn's write to its user's index (bench/instructions.mjs `--with
// rust-indexed-floor`): a stand-in for the adapter's SessionIndex that answers every operation
// `204` at once, reading nothing and storing nothing. A turn of the production build bound to it
// pays the worker's side of the write (the title and list name made, the call into stub.js, the
// Durable Object stub and subrequest) and the runtime's delivery of it, and none of the object's
// own work (its operation read, its SQLite transaction, its answer).
export class FloorIndex {
  fetch() {
    return new Response(null, { status: 204 });
  }
}

export default {
  fetch() {
    return new Response("the index floor's worker has no route", { status: 404 });
  },
};
