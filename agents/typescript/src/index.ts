// The agent's worker: exports the SessionAgent Durable Object class, which the adapter binds by
// `script_name` (its `SESSION_AGENT` binding), and answers one route of its own for tools that
// check a deployed agent (check-agent): `GET /sessions/:id/ws` with `Upgrade: websocket` and
// `Authorization: Bearer <AGENT_TOKEN>`, opened as the adapter opens it. Without the AGENT_TOKEN
// secret that route is off (404): the adapter reaches the object through its binding, not HTTP.

import { SessionAgent, type Env as AgentEnv } from "./agent";

export { SessionAgent };

interface Env extends AgentEnv {
  SESSION_AGENT: DurableObjectNamespace<SessionAgent>;
  AGENT_TOKEN?: string;
}

const ROUTE = /^\/sessions\/([A-Za-z0-9._:-]{1,128})\/ws$/;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const session = ROUTE.exec(new URL(request.url).pathname)?.[1];
    if (!env.AGENT_TOKEN || session === undefined) return Response.json({ error: "not found" }, { status: 404 });
    if (!sameSecret(request.headers.get("authorization") ?? "", `Bearer ${env.AGENT_TOKEN}`)) {
      return Response.json({ error: "a valid bearer token is required" }, { status: 401 });
    }
    const headers = new Headers(request.headers);
    headers.set("x-session-id", session);
    headers.delete("authorization");
    const stub = env.SESSION_AGENT.get(env.SESSION_AGENT.idFromName(session));
    return stub.fetch(new Request(request.url, { headers }));
  },
} satisfies ExportedHandler<Env>;

/** Compares in constant time (the runtime's `timingSafeEqual`), so the token cannot be guessed
 * byte by byte from response times. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}
