// The bearer token the worker checks (docs/auth.md): from the app's own backend, renewed a minute
// before it expires, so that every request — the chat, its resume, the history — carries a live one.

/** A token and the moment it expires, in milliseconds since the epoch (a JWT's `exp` × 1000). */
export type IssuedToken = { token: string; expiresAt: number };

/** Asks the app's backend for a new token. Replace it with yours. */
export type TokenSource = () => Promise<IssuedToken>;

/**
 * A source that POSTs to a route of your backend, which knows the user (by its own session) and
 * answers `{ "token": "…", "expiresAt": … }`: a JWT it signed (HS256 with the worker's
 * AUTH_SECRET, or your identity provider's RS256 / ES256 key), naming the session in its
 * `sessions` claim, with `exp` (and `iat` when the worker sets JWT_MAX_AGE_S).
 */
export function backendTokenSource(url: string): TokenSource {
  return async () => {
    const response = await fetch(url, { method: 'POST' });
    if (!response.ok) throw new Error(`The token route answered ${response.status}`);
    return (await response.json()) as IssuedToken;
  };
}

/** How long before its expiry a token is replaced: a request never leaves with one about to die. */
const RENEW_BEFORE_MS = 60_000;

/**
 * The transport's `headers` function: `Authorization: Bearer …` with a token that has more than
 * a minute left, asking the source for a new one otherwise (once, however many requests wait for
 * it); no header without a source. The worker checks a token when a request starts: a stream
 * outlives its token.
 */
export function authHeaders(source: TokenSource | null): () => Promise<Record<string, string>> {
  let current: IssuedToken | null = null;
  let renewing: Promise<IssuedToken> | null = null;
  return async (): Promise<Record<string, string>> => {
    if (source === null) return {};
    if (current === null || current.expiresAt - Date.now() < RENEW_BEFORE_MS) {
      renewing ??= source().finally(() => {
        renewing = null;
      });
      current = await renewing;
    }
    return { Authorization: `Bearer ${current.token}` };
  };
}
