// Shared by the JWKS tests (tests/e2e/jwks.test.mjs), the other tests that sign tokens and the
// reliability suite: RS256 and ES256 keys made here with node's crypto, tokens signed with them or
// with an HS256 secret, and a JWKS server on 127.0.0.1 that counts the fetches of each of its
// paths and can be made to fail.
import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import http from "node:http";

/** A new RS256 key (2048 bits) named `kid`: { kid, alg, privateKey, jwk } (jwk: the public half). */
export function rsaKey(kid) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { kid, alg: "RS256", privateKey, jwk: { ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" } };
}

/** A new ES256 key (P-256) named `kid`. */
export function ecKey(kid) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { kid, alg: "ES256", privateKey, jwk: { ...publicKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" } };
}

/**
 * A JWT over `claims` signed with `key`; its header names the key's alg and kid unless `header`
 * says otherwise (`kid: undefined` leaves it out). ES256 signatures are r || s (IEEE P1363), as
 * JWS wants them.
 */
export function signJwt(key, claims, header = {}) {
  const enc = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${enc({ alg: key.alg, typ: "JWT", kid: key.kid, ...header })}.${enc(claims)}`;
  const options = key.alg === "ES256" ? { key: key.privateKey, dsaEncoding: "ieee-p1363" } : key.privateKey;
  return `${input}.${sign("sha256", Buffer.from(input), options).toString("base64url")}`;
}

/** An HS256 JWT over `claims`, signed with `secret`, under `header`. */
export function hs256Jwt(secret, claims, header = { alg: "HS256", typ: "JWT" }) {
  const enc = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${enc(header)}.${enc(claims)}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
}

/** Seconds since the epoch: a JWT's clock. */
export const nowS = () => Math.floor(Date.now() / 1000);

/**
 * Starts a JWKS server on a free port of 127.0.0.1. Each path serves what `serve(path, set)` last
 * gave it: `{ keys, cacheControl }` (the keys' public JWKs as `{"keys": [...]}`), or a failure:
 * `{ status: 500 }`, `{ body: "not json" }`, `{ drop: true }` (the connection is cut). Returns
 * { url(path), serve(path, set), fetches(path), close() }.
 */
export async function startJwksServer() {
  const sets = new Map();
  const counts = new Map();
  const server = http.createServer((req, res) => {
    const path = req.url.split("?")[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const set = sets.get(path);
    if (!set) {
      res.writeHead(404).end();
      return;
    }
    if (set.drop) {
      req.socket.destroy();
      return;
    }
    const headers = { "content-type": "application/json" };
    if (set.cacheControl) headers["cache-control"] = set.cacheControl;
    res.writeHead(set.status ?? 200, headers);
    res.end(set.body ?? JSON.stringify({ keys: (set.keys ?? []).map((k) => k.jwk) }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    serve: (path, set) => sets.set(path, set),
    fetches: (path) => counts.get(path) ?? 0,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}
