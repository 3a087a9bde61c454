// The probe worker: opens a session agent's WebSocket exactly as the adapter does, for tools that
// talk to an agent directly (check-agent, and the tests that end the adapter's side of a turn
// abruptly). It runs beside the agent's worker in one workerd, with a Durable Object binding
// `AGENT` to the agent's class in that worker, and forwards one route:
//
//   GET /sessions/:id/agent   (Upgrade: websocket)  → the agent of session :id, with the headers
//                                                      the adapter sends (docs/agent-protocol.md)
//
// Query parameters: `user` (x-user-id), `client` (x-client, default the adapter's own
// "ai-sdk-adapter"), `path` (the path the agent is asked on, default "/ws", as the adapter's
// AGENT_PATH). The protocol header is the adapter's: X-Agent-Protocol: 7. The agent's answer is
// passed back as it is, its headers too (X-Agent-Protocol: the protocol it keeps).

const ROUTE = /^\/sessions\/([A-Za-z0-9._:-]{1,128})\/agent$/;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const match = ROUTE.exec(url.pathname);
    if (!match) return Response.json({ error: "not found: use /sessions/:id/agent" }, { status: 404 });
    if ((request.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      return Response.json({ error: "a WebSocket upgrade is required" }, { status: 426 });
    }
    const session = match[1];
    const headers = new Headers({
      upgrade: "websocket",
      "x-session-id": session,
      "x-client": url.searchParams.get("client") ?? "ai-sdk-adapter",
      "x-agent-protocol": "7",
    });
    const user = url.searchParams.get("user");
    if (user !== null) headers.set("x-user-id", user);
    const stub = env.AGENT.get(env.AGENT.idFromName(session));
    const path = url.searchParams.get("path") ?? "/ws";
    return stub.fetch(new Request(`http://agent${path}`, { headers }));
  },
};
