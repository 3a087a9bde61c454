// The panel on the session feed (clients/follow-session.js): every turn of the session, sent from
// another tab of the visitor's or another device, shows here as it streams, and a question
// answered there goes on here; a turn that attaches elsewhere (a retry or an edit in another tab:
// a new branch) moves this panel to that branch. A feed that cannot connect changes nothing the
// visitor sees: the panel goes on as it would without it, and the feed is tried again, later and
// later. A session deleted from anywhere shows as deleted here, its messages gone.
import { useEffect } from "preact/hooks";
import { followSession } from "../../clients/follow-session.js";
import { OLDER_HEADER } from "../../clients/branches.js";
import { historyOptions, sessionBase } from "./api.js";

/**
 * Follows the session of `config` with `chat` while the panel's conversation is shown; `trace()`
 * is the trace mode a history load asks for. `onPage(older)` hears, for each history page the
 * feed loads in place of the chat's messages (another branch, or a turn this chat missed),
 * whether older messages exist before it; `onDeleted()`, that the session was deleted (here or
 * elsewhere: the feed then empties the chat and ends).
 */
export function useFollow(config, chat, trace, onPage, onDeleted) {
  useEffect(() => {
    const base = sessionBase(config);
    const { historyUrl, headers } = historyOptions(config, trace);
    const feed = followSession(chat, {
      url: `${base}/events`,
      historyUrl,
      headers,
      // `config.fetch` adds the visitor's token, and renews it once after a 401 (auth.js).
      fetch: async (url, init) => {
        const response = await config.fetch(url, init);
        if (response.ok && url.startsWith(`${base}/messages`)) onPage(response.headers.get(OLDER_HEADER) !== null);
        return response;
      },
      onEvent: (event) => event.type === "deleted" && onDeleted(),
    });
    return () => feed.close();
  }, [config, chat]);
}
