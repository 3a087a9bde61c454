// The panel on the session feed (clients/follow-session.js): every turn of the session, sent from
// another tab of the visitor's or another device, shows here as it streams, and a question
// answered there goes on here. A feed that cannot connect changes nothing the visitor sees: the
// panel goes on as it would without it, and the feed is tried again, later and later.
import { useEffect } from "preact/hooks";
import { followSession } from "../../clients/follow-session.js";
import { QUESTIONS_HEADERS } from "./questions.js";
import { sessionBase } from "./api.js";

/** Follows the session of `config` with `chat` while the panel's conversation is shown; `trace()` is the trace mode a history load asks for. */
export function useFollow(config, chat, trace) {
  useEffect(() => {
    const base = sessionBase(config);
    const feed = followSession(chat, {
      url: `${base}/events`,
      historyUrl: () => `${base}/messages?trace=${encodeURIComponent(trace())}`,
      // `config.fetch` adds the visitor's token, and renews it once after a 401 (auth.js).
      headers: QUESTIONS_HEADERS,
      fetch: config.fetch,
    });
    return () => feed.close();
  }, [config, chat]);
}
