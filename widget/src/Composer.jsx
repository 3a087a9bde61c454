// The message box: Enter sends (Shift+Enter starts a new line); while a turn runs, the Send
// button is Stop. One button, not two in turn, so a visitor on it keeps the focus when it
// changes; after a Stop the focus goes to the message box, where the next message is written.
// The box takes the focus when it appears (the panel opened).
import { useEffect, useRef, useState } from "preact/hooks";
import { useStrings } from "./strings.js";

export function Composer({ busy, onSend, onStop }) {
  const { messages: t } = useStrings();
  const [text, setText] = useState("");
  const box = useRef(null);
  useEffect(() => box.current.focus(), []);
  const empty = !text.trim();
  const send = () => {
    if (busy || empty) return;
    onSend(text.trim());
    setText("");
  };
  const onKeyDown = (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
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
      <textarea
        ref={box}
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
