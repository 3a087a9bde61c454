// The widget's two forms: inline (data-mount: the panel fills the element, as on the
// playground) or a launcher button that opens the panel over the page, as a dialog (Escape
// closes it and gives the focus back to the launcher). The panel is created on first open and
// kept while closed, so a running turn goes on streaming. Whether it is open lives in the
// control store (control.js), so the page's `AgentChat.open()` and `close()` reach it.
import { useEffect, useReducer, useRef } from "preact/hooks";
import { Panel } from "./Panel.jsx";

export function App({ config }) {
  if (config.mount) return <Panel config={config} />;
  return <Launcher config={config} />;
}

/**
 * The control store's `open`, re-rendering on change, including a change made between this
 * render and the subscription (a page's `open()` or `send()` right after the panel mounts).
 */
function useOpen(control) {
  const [, rerender] = useReducer((n) => n + 1, 0);
  const open = control.isOpen();
  useEffect(() => {
    const unsubscribe = control.subscribe(rerender);
    if (control.isOpen() !== open) rerender();
    return unsubscribe;
  }, [control]);
  return open;
}

function Launcher({ config }) {
  const { control } = config;
  const open = useOpen(control);
  const created = useRef(false);
  if (open) created.current = true;
  const popup = useRef(null);
  const launcher = useRef(null);
  const wasOpen = useRef(false);
  // Opened again: back to the message box; closed: back to the launcher. (On the first open
  // the message box focuses itself once the history is loaded.)
  useEffect(() => {
    if (open) popup.current.querySelector("textarea")?.focus();
    else if (wasOpen.current) launcher.current.focus();
    if (open !== wasOpen.current) config.emit?.(open ? "open" : "close");
    wasOpen.current = open;
  }, [open]);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      control.setOpen(false);
    }
  };
  return (
    <>
      {created.current && (
        <div
          class="popup"
          id="agent-chat-dialog"
          role="dialog"
          aria-label={config.title}
          ref={popup}
          hidden={!open}
          onKeyDown={onKeyDown}
        >
          <Panel config={config} onClose={() => control.setOpen(false)} />
        </div>
      )}
      <button
        type="button"
        class="launcher"
        ref={launcher}
        hidden={open}
        aria-label="Open chat"
        aria-haspopup="dialog"
        aria-expanded={open ? "true" : "false"}
        aria-controls={created.current ? "agent-chat-dialog" : undefined}
        onClick={() => control.setOpen(true)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M4 5h16v11H8l-4 4z" />
        </svg>
      </button>
    </>
  );
}
