// The message box: Enter sends (Shift+Enter starts a new line); while a turn runs, Stop
// takes the place of Send. It takes the focus when it appears (the panel opened).
import { useEffect, useRef, useState } from "preact/hooks";
import { useStrings } from "./strings.js";

export function Composer({ busy, onSend, onStop }) {
  const { messages: t } = useStrings();
  const [text, setText] = useState("");
  const box = useRef(null);
  useEffect(() => box.current.focus(), []);
  const send = () => {
    if (busy || !text.trim()) return;
    onSend(text.trim());
    setText("");
  };
  const onKeyDown = (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
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
      {busy ? (
        <button type="button" class="stop" onClick={onStop}>
          {t.stop}
        </button>
      ) : (
        <button type="submit" class="send" disabled={!text.trim()}>
          {t.send}
        </button>
      )}
    </form>
  );
}
