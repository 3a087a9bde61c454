// The panel's two forms: inline (data-mount: the panel fills the element, as on the playground)
// or the dialog the launcher (or the site's own button) opens over the page (Escape closes it;
// the focus then goes back to what opened it: launcher.js). The dialog is kept while closed, so a
// running turn goes on streaming. Whether it is open and the strings live in the loader's control
// store (control.js), so the page's `AgentChat.open()`, `close()` and `setLocale()` reach them.
// On a phone the dialog covers the page: it is modal there, and Tab stays inside it.
import { useEffect, useReducer, useRef, useState } from "preact/hooks";
import { Panel } from "./Panel.jsx";
import { Strings } from "./strings.js";
import { DIALOG_ID } from "./launcher.js";
import { useViewportBox } from "./viewport.js";

/** Where the dialog fills the screen: panel.css's phone breakpoint, the same width. */
const COVERS_PAGE = "(max-width: 640px)";

/** What Tab can reach inside the dialog. */
const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

/**
 * Re-renders on every change of the control store, including one made between this render and
 * the subscription (a page's `open()` or `send()` right after the panel mounts).
 */
function useControl(control) {
  const [, rerender] = useReducer((n) => n + 1, 0);
  const state = () => [control.isOpen(), control.strings(), control.session(), control.view()];
  const seen = state();
  useEffect(() => {
    const unsubscribe = control.subscribe(rerender);
    if (state().some((value, i) => value !== seen[i])) rerender();
    return unsubscribe;
  }, [control]);
}

/** Whether the dialog covers the page now (the window is phone-wide), kept up to date. */
function useCoversPage() {
  const query = useRef(window.matchMedia(COVERS_PAGE));
  const [covers, setCovers] = useState(query.current.matches);
  useEffect(() => {
    const update = () => setCovers(query.current.matches);
    query.current.addEventListener("change", update);
    return () => query.current.removeEventListener("change", update);
  }, []);
  return covers;
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

/** Keeps Tab and Shift+Tab inside `container`: from its last control to its first, and back
 * (those shown and within reach: not under the Conversations view, which makes them inert). */
function keepTabInside(event, container) {
  const items = [...container.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length > 0 && !el.closest("[inert]"));
  if (items.length === 0) return;
  const active = container.getRootNode().activeElement;
  const [first, last] = [items[0], items.at(-1)];
  if (event.shiftKey ? active === first || !container.contains(active) : active === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}

function Popup({ config, open }) {
  const { control } = config;
  const popup = useRef(null);
  const covers = useCoversPage();
  useViewportBox(popup, open);
  // Opened again: back to the message box, or the Conversations view when it shows. (On the
  // first open the message box focuses itself once the history is loaded.)
  useEffect(() => {
    if (open) (popup.current.querySelector(".conversations h3") ?? popup.current.querySelector("textarea"))?.focus();
  }, [open]);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      control.setOpen(false);
    } else if (event.key === "Tab" && covers) keepTabInside(event, popup.current);
  };
  return (
    <div
      class="popup"
      id={DIALOG_ID}
      role="dialog"
      aria-modal={covers ? "true" : undefined}
      aria-label={control.strings().messages.title}
      ref={popup}
      hidden={!open}
      onKeyDown={onKeyDown}
    >
      <Panel config={config} onClose={() => control.setOpen(false)} />
    </div>
  );
}
