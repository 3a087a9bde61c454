// What the conversation says once its session was deleted (here or elsewhere: another tab, the
// app's own list, retention): that it was, and the ways on: New conversation (the Conversations
// view's own, Panel.jsx) and, where the view is on, Conversations. Read by a screen reader as it
// comes (a status), its buttons reached by Tab; the focus stays where the visitor had it.
import { useStrings } from "./strings.js";

/** `onNew()` starts a new conversation; `onList()`, where given, opens the Conversations view. */
export function DeletedNotice({ onNew, onList }) {
  const { messages: t } = useStrings();
  return (
    <div class="notice deleted">
      <p role="status">{t.deleted}</p>
      <button type="button" class="new" onClick={onNew}>
        {t.newConversation}
      </button>
      {onList && (
        <button type="button" onClick={onList}>
          {t.conversations}
        </button>
      )}
    </div>
  );
}
