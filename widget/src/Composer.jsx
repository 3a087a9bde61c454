// The message box: Enter sends (Shift+Enter starts a new line); while a turn runs, the Send
// button is Stop. One button, not two in turn, so a visitor on it keeps the focus when it
// changes; after a Stop the focus goes to the message box, where the next message is written.
// The box takes the focus when it appears (the panel opened). Editing a message (`editing`: its
// text), the box holds that text and says so above it, with a Cancel (Escape too); a send then
// replaces the message. A send before the conversation is `ready` (it still asks whether a turn
// is in flight) is held, the text in the box, and goes the moment it is, unless the text changed
// meanwhile; if a turn is in flight after all, the text stays in the box to be sent after it.
// Files (attachments.js) come from the attach button (on a phone its chooser offers the camera
// and the photo library), or pasted into the box; they show above it as they upload, and Send
// waits until every one is up. A message may be files alone.
import { useEffect, useRef, useState } from "preact/hooks";
import { useStrings } from "./strings.js";
import { ACCEPT } from "./attachments.js";
import { AttachedFiles } from "./AttachedFiles.jsx";

/** A paperclip, drawn: the attach button's icon (its name is the button's aria-label). */
const PAPERCLIP = (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    <path
      d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
    />
  </svg>
);

/**
 * Whether a paste brings files rather than text: files, unless it also has both plain text and
 * HTML (a word processor's copy of text also carries a picture of it).
 */
const pastesFiles = (data) =>
  data?.files?.length > 0 && !(data.types.includes("text/plain") && data.types.includes("text/html"));

/** `attachments`: useAttachments's (Conversation's, which a drop on the panel adds to as well). */
export function Composer({ busy, ready, onSend, onStop, editing = null, onCancelEdit, attachments }) {
  const { messages: t } = useStrings();
  const picker = useRef(null);
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
  const empty = !text.trim() && attachments.parts().length === 0;
  /** A file is on its way up, or failed (retried or removed, it may go). */
  const waiting = attachments.uploading || attachments.failed;
  const send = () => {
    if (busy || empty || waiting) return;
    if (!ready) return setHeld(text);
    setHeld(null);
    onSend(text.trim(), attachments.parts());
    setText("");
    attachments.clear();
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
      <AttachedFiles attachments={attachments} onRemoved={() => box.current.focus()} />
      {attachments.unavailable && (
        <p class="notice" role="status">
          {t.attachmentsUnavailable}
        </p>
      )}
      {attachments.enabled && (
        <>
          <button type="button" class="attach" aria-label={t.attach} title={t.attach} onClick={() => picker.current.click()}>
            {PAPERCLIP}
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            accept={ACCEPT}
            hidden
            onChange={(event) => {
              attachments.add(event.currentTarget.files);
              // The same file may be chosen again.
              event.currentTarget.value = "";
              box.current.focus();
            }}
          />
        </>
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
        onPaste={(event) => {
          if (!attachments.enabled || !pastesFiles(event.clipboardData)) return;
          event.preventDefault();
          attachments.add(event.clipboardData.files);
        }}
      />
      {/* aria-disabled, not disabled: a disabled button loses the focus of a visitor on it. */}
      <button
        type={busy ? "button" : "submit"}
        class={busy ? "stop" : "send"}
        aria-disabled={!busy && (empty || waiting) ? "true" : undefined}
        onClick={onAction}
      >
        {busy ? t.stop : t.send}
      </button>
    </form>
  );
}
