// The widget's entry point: `<script src="…/widget.js" data-session="…" async>` puts the chat
// on the page inside a shadow root, so the page's CSS cannot reach it and its own CSS reaches
// nothing of the page. Settings: config.js.
import { render } from "preact";
import { App } from "./App.jsx";
import { readConfig } from "./config.js";
import css from "./panel.css";

// Only set while this script runs for the first time: read it now.
const script = document.currentScript;

function mount() {
  const config = readConfig(script, window.location);
  const target = config.mount ? document.querySelector(config.mount) : document.body;
  if (!target) {
    console.error(`session-agent-chat: no element matches data-mount="${config.mount}"`);
    return;
  }
  const host = document.createElement("session-agent-chat");
  if (config.mount) host.setAttribute("inline", "");
  const root = host.attachShadow({ mode: "open" });
  adoptStyles(root);
  target.appendChild(host);
  render(<App config={config} />, root);
}

/** A constructed style sheet (allowed by a page's CSP without 'unsafe-inline'), else a <style>. */
function adoptStyles(root) {
  if ("adoptedStyleSheets" in root && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = css;
    root.appendChild(style);
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount, { once: true });
else mount();
