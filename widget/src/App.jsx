// The widget's two forms: inline (data-mount: the panel fills the element, as on the
// playground) or a launcher button that opens the panel over the page. The panel is created on
// first open and kept while closed, so a running turn goes on streaming.
import { useEffect, useRef, useState } from "preact/hooks";
import { Panel } from "./Panel.jsx";

export function App({ config }) {
  if (config.mount) return <Panel config={config} />;
  return <Launcher config={config} />;
}

function Launcher({ config }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState(false);
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
  return (
    <>
      {created && (
        <div class="popup" ref={popup} hidden={!open}>
          <Panel config={config} onClose={() => setOpen(false)} />
        </div>
      )}
      {!open && (
        <button
          type="button"
          class="launcher"
          ref={launcher}
          aria-label="Open chat"
          onClick={() => {
            setCreated(true);
            setOpen(true);
          }}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 5h16v11H8l-4 4z" />
          </svg>
        </button>
      )}
    </>
  );
}
