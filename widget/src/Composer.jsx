// The message box: Enter sends (Shift+Enter starts a new line); while a turn runs, the Send
// button is Stop. One button, not two in turn, so a visitor on it keeps the focus when it
// changes; after a Stop the focus goes to the message box, where the next message is written.
// The box takes the focus when it appears (the panel opened). Editing a message (`editing`: its
// text), the box holds that text and says so above it, with a Cancel (Escape too); a send then
// replaces the message. A send before the conversation is `ready` (it still asks whether a turn
// is in flight) is held, the text in the box, and goes the moment it is, unless the text changed
// meanwhile; if a turn is in flight after all, the text stays in the box to be sent after it.
import { useEffect, useRef, useState } from "preact/hooks";
import { useStrings } from "./strings.js";

export function Composer({ busy, ready, onSend, onStop, editing = null, onCancelEdit }) {
  const { messages: t } = useStrings();
  const [text, setText] = useState("");
  /** The text of a send asked for before the conversation was ready, or null. */
  const [held, setHeld] = useState(null);
  const box = useRef(null);
  useEffect(() => box.current.focus(), []);
  useEffect(() => {
    if (editing === null) return;
    setText(editing);
    box.current.focus();
  }, [editing]);
  const cancel = () => {
    setText("");
    onCancelEdit();
    box.current.focus();
  };
  const empty = !text.trim();
  const send = () => {
    if (busy || empty) return;
    if (!ready) return setHeld(text);
    setHeld(null);
    onSend(text.trim());
    setText("");
  };
  useEffect(() => {
    if (held === null || (!busy && !ready)) return;
    // Sent as it was held: a text changed since is the visitor's to send.
    if (!busy && held === text) send();
    else setHeld(null);
  }, [busy, ready, held]);
  const onKeyDown = (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === "Escape" && editing !== null) {
      // The edit ends here, not the dialog it is in.
      event.stopPropagation();
      cancel();
    }
  };
  const onAction = (event) => {
    if (!busy) return;
    // Stop: not a submit, whatever the button's type says while it changes.
    event.preventDefault();
    onStop();
    box.current.focus();
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {editing !== null && (
        <p class="editing">
          <span>{t.editing}</span>
          <button type="button" onClick={cancel}>
            {t.cancelEdit}
          </button>
        </p>
      )}
      {/* dir="auto": what is typed takes its direction from its first letters, as a bubble does. */}
      <textarea
        ref={box}
        dir="auto"
        aria-label={t.message}
        placeholder={t.placeholder}
        rows={2}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      {/* aria-disabled, not disabled: a disabled button loses the focus of a visitor on it. */}
      <button
        type={busy ? "button" : "submit"}
        class={busy ? "stop" : "send"}
        aria-disabled={!busy && empty ? "true" : undefined}
        onClick={onAction}
      >
        {busy ? t.stop : t.send}
      </button>
    </form>
  );
}
