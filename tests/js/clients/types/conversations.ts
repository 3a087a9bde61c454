// clients/conversations.d.ts as an app uses it (tests/js/clients/conversations_types.test.mjs
// compiles this with `tsc --noEmit`): each call's answer typed, and a wrong argument an error.
import { conversations, ConversationsError, type Conversation, type ConversationsPage } from "../../../../clients/conversations.js";

export async function sidebar(token: string | null): Promise<string[]> {
  const list = conversations({ baseUrl: "https://chat.example", headers: async (): Promise<Record<string, string>> => (token ? { Authorization: `Bearer ${token}` } : {}) });
  const page: ConversationsPage = await list.page({ limit: 20, cursor: null });
  const titles = page.sessions.map((s: Conversation) => `${s.title} (${new Date(s.updatedAt).toISOString()})`);
  for await (const session of list.all({ limit: 100 })) titles.push(session.id);
  const renamed: Conversation = await list.rename(page.sessions[0].id, "Lisbon");
  titles.push(renamed.title);
  try {
    await list.remove(renamed.id);
  } catch (error) {
    if (error instanceof ConversationsError && error.code === "session_not_found") titles.push(String(error.status));
  }
  // @ts-expect-error a title is text
  await list.rename("s", 5);
  // @ts-expect-error a page's cursor is text or null
  await list.page({ cursor: 3 });
  // @ts-expect-error no such call
  await list.archive("s");
  return titles;
}
