// The agent's worker: it exports the ChatAgent Durable Object class, which the adapter binds by
// `script_name` and `class_name` (docs/your-agent.md). The worker itself serves nothing.

export { ChatAgent } from "./agent";

export default {
  async fetch(): Promise<Response> {
    return Response.json({ error: "not found: this worker hosts the ChatAgent Durable Object, reached through the adapter" }, { status: 404 });
  },
} satisfies ExportedHandler;
