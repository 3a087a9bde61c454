// The launcher: the round button in the page's corner that opens the panel as a dialog, with
// the count of answers that finished while it was closed. Plain DOM, in the loader, so a page
// view that never opens the chat loads nothing more; the panel (widget/panel-<version>.js) is fetched when
// the visitor points at it, focuses it or opens it. A site that has its own button hides it
// (`hideLauncher`) and calls `open()` / `toggle()`.
import { format, plural } from "./locale.js";

const SVG = "http://www.w3.org/2000/svg";
/** The id the dialog carries (App.jsx), for the launcher's `aria-controls`. */
export const DIALOG_ID = "agent-chat-dialog";
/** Above this many the badge says "99+": two digits fit its circle. */
const MAX_SHOWN_UNREAD = 99;

function icon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M4 5h16v11H8l-4 4z");
  svg.appendChild(path);
  return svg;
}

/**
 * Puts the launcher into `root` (after `slot`, where the dialog goes). `control`: the panel's
 * store (control.js); `panel()`: whether the dialog is drawn yet; `prefetch()`: starts loading
 * the panel. Returns { button, update }: `update()` to call when the panel has been drawn.
 */
export function createLauncher(root, control, panel, prefetch) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "launcher";
  button.setAttribute("aria-haspopup", "dialog");
  button.appendChild(icon());
  // The count is in the button's name for a screen reader; the badge shows it to the eye.
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.setAttribute("aria-hidden", "true");
  button.appendChild(badge);
  button.addEventListener("click", () => control.setOpen(true));
  button.addEventListener("pointerenter", prefetch, { once: true });
  button.addEventListener("focus", prefetch, { once: true });
  root.appendChild(button);

  const update = () => {
    const open = control.isOpen();
    const { locale, messages: t } = control.strings();
    const unread = control.unread();
    // Until the panel is drawn the launcher stays, busy, so the page never shows nothing.
    button.hidden = open && panel();
    button.setAttribute("aria-expanded", String(open && panel()));
    button.setAttribute("aria-busy", String(open && !panel()));
    button.setAttribute("aria-label", unread > 0 ? format(plural(t.openChatUnread, unread, locale)) : t.openChat);
    badge.hidden = unread === 0;
    badge.textContent = unread > MAX_SHOWN_UNREAD ? `${MAX_SHOWN_UNREAD}+` : unread.toLocaleString(locale);
    if (panel()) button.setAttribute("aria-controls", DIALOG_ID);
  };
  update();
  control.subscribe(update);
  return { button, update };
}

/**
 * Where the focus goes when the launcher's panel closes: back to the launcher (`launcher()`,
 * null when the site hides it), else to what had it when the panel opened (the site's own
 * button), but only when the visitor was in the panel. A `close()` of the site's while the
 * visitor types in the site's own field leaves the focus where it is.
 */
export function returnFocusOnClose(root, control, launcher) {
  let wasOpen = control.isOpen();
  let opener = null;
  control.subscribe(() => {
    const open = control.isOpen();
    if (open && !wasOpen) {
      // A click on the launcher leaves the focus in our shadow root: that is the launcher's.
      const active = document.activeElement;
      opener = active && active !== root.host && active !== document.body ? active : null;
    }
    if (!open && wasOpen && root.activeElement !== null) {
      const target = launcher() ?? (opener?.isConnected ? opener : null);
      target?.focus();
    }
    wasOpen = open;
  });
}
