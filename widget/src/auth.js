// The bearer token the panel sends: a fixed string (`data-token`, or `token` in the JS config),
// or a function of the site's (`getToken`, sync or async) that returns one. The function is
// called before each request with `{ renew: false }` (it may answer from its cache); a request
// answered 401 calls it once more with `{ renew: true }` (the token it gave was refused: it must
// get a new one) and is sent again, once, with what it returns.

/**
 * A token source from `{ token, getToken }`. `header()` is the `Authorization` header for the
 * next request (none without a token); `renewable` says whether a 401 is worth a second try.
 */
export function tokenSource({ token, getToken } = {}) {
  const read = async (renew) => (typeof getToken === "function" ? await getToken({ renew }) : token);
  return {
    renewable: typeof getToken === "function",
    /** `renew`: the last token was refused. */
    async header(renew = false) {
      const value = await read(renew);
      return value ? { authorization: `Bearer ${value}` } : {};
    },
  };
}

/**
 * `fetch` for the panel's requests: with the source's header when `init` has none (the chat
 * transport adds its own, from the same source), and sent again once with a new token when the
 * answer is 401 and the source can renew it. The body of a chat request is a string, so it can
 * be sent twice.
 */
export function authorizedFetch(source, fetchImpl = (...args) => globalThis.fetch(...args)) {
  /** `init`'s headers with the source's token (a renewed one when `renew`) in place of theirs. */
  const withToken = async (init, renew) => {
    const headers = new Headers(init.headers);
    headers.delete("authorization");
    for (const [name, value] of Object.entries(await source.header(renew))) headers.set(name, value);
    return { ...init, headers };
  };
  return async (input, init = {}) => {
    const given = new Headers(init.headers).has("authorization");
    const response = await fetchImpl(input, given ? init : await withToken(init, false));
    if (response.status !== 401 || !source.renewable) return response;
    // The first answer is dropped unread: release its body.
    response.body?.cancel().catch(() => {});
    return fetchImpl(input, await withToken(init, true));
  };
}

/**
 * A source whose token can be replaced while the panel runs (`identify`): requests made after
 * `set` use the new one, including the chat transport made before.
 */
export function replaceableSource(initial) {
  let current = initial;
  return {
    set(source) {
      current = source;
    },
    get renewable() {
      return current.renewable;
    },
    header(renew) {
      return current.header(renew);
    },
  };
}
