// The widget's entry point: `<script src="…/widget.js" data-session="…" async>` puts the chat
// on the page inside a shadow root, so the page's CSS cannot reach it and its own CSS reaches
// nothing of the page. Settings: config.js; the page's JavaScript handle: global.js.
import { render } from "preact";
import { App } from "./App.jsx";
import { makeConfig, scriptOptions } from "./config.js";
import { installGlobal } from "./global.js";
import { createControl } from "./control.js";
import css from "./panel.css";

// Only set while this script runs for the first time: read it now.
const script = document.currentScript;

/** The mounted panel: { host, root, config }, or null. */
let mounted = null;

const panel = {
  mount(options, emit) {
    const base = makeConfig(options, script, window.location);
    const control = createControl(emit, Boolean(base.mount), options.context);
    const config = { ...base, emit, control };
    const target = config.mount ? document.querySelector(config.mount) : document.body;
    if (!target) {
      console.error(`session-agent-chat: no element matches mount "${config.mount}"`);
      emit("error", { message: `no element matches mount "${config.mount}"` });
      return;
    }
    const host = document.createElement("session-agent-chat");
    if (config.mount) host.setAttribute("inline", "");
    const root = host.attachShadow({ mode: "open" });
    adoptStyles(root);
    target.appendChild(host);
    render(<App config={config} />, root);
    mounted = { host, root, config };
    emit("ready", { session: config.session });
  },
  /** Unmounts the panel: its chat's streams are closed (a detached turn goes on at the agent). */
  unmount() {
    if (!mounted) return;
    render(null, mounted.root);
    mounted.host.remove();
    mounted = null;
  },
  current: () => mounted?.config ?? null,
};

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

const global = installGlobal(window, panel, () => scriptOptions(script));
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => global.boot(), { once: true });
else global.boot();
