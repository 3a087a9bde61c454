// The panel's script (widget/panel-<version>.js): the chat itself (Preact through preact/compat for the AI
// SDK's React hooks, Markdown, the tool cards), loaded by widget.js when the visitor first opens
// the launcher, or at once for an inline panel. It hands its `mount` to the loader through the
// registry key both scripts know (panel-script.js).
import "./zod-jitless.js";
import { render } from "preact";
import { App } from "./App.jsx";
import { PANEL_KEY, PANEL_VERSION } from "./panel-script.js";
import css from "./panel.css";

/**
 * Draws the panel into `slot` of the loader's shadow `root`, with the loader's `config` (its
 * control store among it); `adoptStyles(root, css)` adds the panel's styles. Returns { unmount }.
 */
function mount({ root, slot, config, adoptStyles }) {
  adoptStyles(root, css);
  render(<App config={config} />, slot);
  return {
    unmount() {
      render(null, slot);
    },
  };
}

const define = globalThis[PANEL_KEY];
if (typeof define === "function") define({ version: PANEL_VERSION, mount });
else console.error("AgentChat: widget-panel.js is loaded by widget.js; add widget.js to the page instead");
