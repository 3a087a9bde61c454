// The launcher: the round button in the page's corner that opens the panel as a dialog. Plain
// DOM, in the loader, so a page view that never opens the chat loads nothing more; the panel
// (widget-panel.js) is fetched when the visitor points at it, focuses it or opens it. Closed
// again, the focus comes back to it.

const SVG = "http://www.w3.org/2000/svg";
/** The id the dialog carries (Popup.jsx), for the launcher's `aria-controls`. */
export const DIALOG_ID = "agent-chat-dialog";

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
 * the panel. Returns `update()`, to call when the panel has been drawn.
 */
export function createLauncher(root, control, panel, prefetch) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "launcher";
  button.setAttribute("aria-haspopup", "dialog");
  button.appendChild(icon());
  button.addEventListener("click", () => control.setOpen(true));
  button.addEventListener("pointerenter", prefetch, { once: true });
  button.addEventListener("focus", prefetch, { once: true });
  root.appendChild(button);

  let wasOpen = false;
  const update = () => {
    const open = control.isOpen();
    // Until the panel is drawn the launcher stays, busy, so the page never shows nothing.
    button.hidden = open && panel();
    button.setAttribute("aria-expanded", String(open && panel()));
    button.setAttribute("aria-busy", String(open && !panel()));
    button.setAttribute("aria-label", control.strings().messages.openChat);
    if (panel()) button.setAttribute("aria-controls", DIALOG_ID);
    if (wasOpen && !open) button.focus();
    wasOpen = open;
  };
  update();
  control.subscribe(update);
  return update;
}
