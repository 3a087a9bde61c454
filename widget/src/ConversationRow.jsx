// One conversation of the Conversations view: its title and how long ago its last turn was, a
// button that opens it, and Rename and Delete. A rename is inline (Enter saves, Escape cancels, at
// most MAX_TITLE characters; a refusal said in words); a delete asks first, in the row. The focus
// goes to the field, or to Cancel (the harmless choice), and back to the row's button after.
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { ago } from "./ago.js";

/** The longest title the worker takes (docs/sessions.md, "Your conversations"). */
export const MAX_TITLE = 200;

const TrashIcon = () => (
  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
    <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" />
  </svg>
);

/**
 * `session`: { id, title, updatedAt }; `current`: the one the panel shows; `now`: the time the
 * list was drawn at; `onOpen(id)`; `onRename(id, title)` and `onDelete(id)` resolve with null
 * once done, else the sentence that says why not.
 */
export function ConversationRow({ session, current, now, onOpen, onRename, onDelete }) {
  const { locale, messages: t } = useStrings();
  /** null, "rename" or "confirm". */
  const [mode, setMode] = useState(null);
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const title = session.title || t.untitled;
  const field = useRef(null);
  const cancel = useRef(null);
  const renameButton = useRef(null);
  const deleteButton = useRef(null);
  /** The row's button the focus goes back to once the rename or the question is over. */
  const back = useRef(null);
  // Layout effects: the focus moves in the same frame as what it moves to, never to nothing first.
  useLayoutEffect(() => {
    if (mode === "rename") field.current.select();
    else if (mode === "confirm") cancel.current.focus();
    else back.current?.current?.focus();
    back.current = null;
  }, [mode]);
  const start = (next) => {
    setProblem(null);
    setDraft(session.title);
    setMode(next);
  };
  const done = (button) => {
    back.current = button;
    setProblem(null);
    setMode(null);
  };
  /** Runs `action()` once at a time; its sentence, if any, shows in the row. */
  const attempt = async (action, button) => {
    if (busy) return;
    setBusy(true);
    const sentence = await action();
    setBusy(false);
    if (sentence) setProblem(sentence);
    else if (button) done(button);
  };
  const onEscape = (button) => (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    done(button);
  };

  if (mode === "rename") {
    return (
      <li class="row">
        <form
          class="rename-form"
          onSubmit={(event) => {
            event.preventDefault();
            attempt(() => onRename(session.id, draft), renameButton);
          }}
          onKeyDown={onEscape(renameButton)}
        >
          <input
            ref={field}
            aria-label={t.titleField}
            maxLength={MAX_TITLE}
            value={draft}
            onInput={(event) => setDraft(event.currentTarget.value)}
            aria-invalid={problem ? "true" : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <button type="submit" aria-disabled={busy ? "true" : undefined}>
            {t.save}
          </button>
          <button type="button" onClick={() => done(renameButton)}>
            {t.cancel}
          </button>
          {problem && (
            <p class="row-error" id={`${id}-problem`} role="alert">
              {problem}
            </p>
          )}
        </form>
      </li>
    );
  }
  if (mode === "confirm") {
    return (
      <li class="row">
        <div class="confirm" role="group" aria-labelledby={`${id}-ask`} onKeyDown={onEscape(deleteButton)}>
          <p id={`${id}-ask`}>{format(t.deleteAsk, { title })}</p>
          <button type="button" class="danger" aria-disabled={busy ? "true" : undefined} onClick={() => attempt(() => onDelete(session.id))}>
            {t.deleteConfirm}
          </button>
          <button type="button" ref={cancel} onClick={() => done(deleteButton)}>
            {t.cancel}
          </button>
          {problem && (
            <p class="row-error" role="alert">
              {problem}
            </p>
          )}
        </div>
      </li>
    );
  }
  return (
    <li class={current ? "row current" : "row"} data-session={session.id}>
      <button type="button" class="open" aria-current={current ? "true" : undefined} onClick={() => onOpen(session.id)}>
        <span class="row-title">{title}</span>{" "}
        <time dateTime={new Date(session.updatedAt).toISOString()}>{ago(session.updatedAt, now, locale)}</time>
      </button>
      <button type="button" class="rename" ref={renameButton} aria-label={format(t.renameConversation, { title })} onClick={() => start("rename")} />
      <button type="button" class="delete" ref={deleteButton} aria-label={format(t.deleteConversation, { title })} onClick={() => start("confirm")}>
        <TrashIcon />
      </button>
    </li>
  );
}
