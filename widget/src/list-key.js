// The visitor's list of conversations where no JWT names them (docs/sessions.md, "Who sees
// what"): a key of the panel's own, a random UUID this browser keeps per panel and user as it
// keeps the session's id, sent as `X-Conversations-Key` with every request of the panel's (the
// chat's turns are listed under it; the Conversations view lists it). Under a JWT the worker
// reads the token's `sub` instead and ignores the header. `logout` forgets it with the rest.

export const LIST_KEY_HEADER = "x-conversations-key";

/** `fetchImpl` with the list's `key` on every request's headers. */
export function withListKey(fetchImpl, key) {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set(LIST_KEY_HEADER, key);
    return fetchImpl(input, { ...init, headers });
  };
}
