// The panel's two forms: inline (data-mount: the panel fills the element, as on the playground)
// or the dialog the launcher opens over the page (Escape closes it; the loader's launcher then
// takes the focus back). The dialog is kept while closed, so a running turn goes on streaming.
// Whether it is open and the strings live in the loader's control store (control.js), so the
// page's `AgentChat.open()`, `close()` and `setLocale()` reach them.
import { useEffect, useReducer, useRef } from "preact/hooks";
import { Panel } from "./Panel.jsx";
import { Strings } from "./strings.js";
import { DIALOG_ID } from "./launcher.js";
import { useViewportBox } from "./viewport.js";

/**
 * Re-renders on every change of the control store, including one made between this render and
 * the subscription (a page's `open()` or `send()` right after the panel mounts).
 */
function useControl(control) {
  const [, rerender] = useReducer((n) => n + 1, 0);
  const seen = [control.isOpen(), control.strings()];
  useEffect(() => {
    const unsubscribe = control.subscribe(rerender);
    if (control.isOpen() !== seen[0] || control.strings() !== seen[1]) rerender();
    return unsubscribe;
  }, [control]);
}

export function App({ config }) {
  const { control } = config;
  useControl(control);
  return (
    <Strings.Provider value={control.strings()}>
      {config.mount ? <Panel config={config} /> : <Popup config={config} open={control.isOpen()} />}
    </Strings.Provider>
  );
}

function Popup({ config, open }) {
  const { control } = config;
  const popup = useRef(null);
  useViewportBox(popup, open);
  // Opened again: back to the message box. (On the first open the message box focuses itself
  // once the history is loaded.)
  useEffect(() => {
    if (open) popup.current.querySelector("textarea")?.focus();
  }, [open]);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      control.setOpen(false);
    }
  };
  return (
    <div class="popup" id={DIALOG_ID} role="dialog" aria-label={control.strings().messages.title} ref={popup} hidden={!open} onKeyDown={onKeyDown}>
      <Panel config={config} onClose={() => control.setOpen(false)} />
    </div>
  );
}
