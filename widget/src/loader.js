// The widget's loader, widget.js: `<script src="…/widget.js" data-session="…" async>` puts the
// chat on the page inside a shadow root, so the page's CSS cannot reach it and its own CSS
// reaches nothing of the page. It is small on purpose: it draws the launcher, runs the page's
// `AgentChat` calls (global.js) and loads the panel itself (widget/panel-<version>.js: Preact,
// the AI SDK, Markdown) only when the visitor opens it, or at once for an inline panel
// (data-mount). A second widget.js on the page joins the first's `AgentChat` as an instance of
// its own (global.js).
import { labelsOf, makeConfig, requestedLocale, scriptOptions, themeOf } from "./config.js";
import { installGlobal } from "./global.js";
import { createControl } from "./control.js";
import { applyAppearance, checkTheme, onSchemeChange } from "./appearance.js";
import { resolveLocale } from "./locale.js";
import { createLauncher, returnFocusOnClose } from "./launcher.js";
import { createHost } from "./host.js";
import { CURRENT_PANEL_FILE, PANEL_FILE, loadPanel } from "./panel-script.js";
import css from "./loader.css";

// Only set while this script runs for the first time: read it now.
const script = document.currentScript;
/**
 * This build's panel: its file name carries its version, so it is cached for good; and the
 * current panel, for a loader kept from a deploy whose panel is gone (panel-script.js).
 */
const scriptBase = script?.src || window.location.href;
const panelSrc = { src: new URL(PANEL_FILE, scriptBase).href, current: new URL(CURRENT_PANEL_FILE, scriptBase).href };

/** Every mounted panel of this loader's, for the reader's scheme switching (`auto`). */
const mountedPanels = new Set();

/**
 * The panel of one instance, drawn from the options of `script` (its own widget.js tag) under the
 * page's: { mount(options, emit, place), unmount(), current(), setLocale(), setTheme(),
 * ensureConnected() }. `place`: { instance, first } (config.js, makeConfig).
 */
function createPanel(script) {
  /** The mounted panel: { host, root, config, theme, handle, stop }, or null. */
  let mounted = null;
  return {
    mount(options, emit, place) {
      const base = makeConfig(options, script, window.location, place);
      const theme = themeOf(options);
      checkTheme(theme);
      const locale = resolveLocale(requestedLocale(options, document), labelsOf(options));
      const control = createControl(emit, Boolean(base.mount), options.context, locale, base);
      const config = { ...base, emit, control };
      const target = () => (config.mount ? document.querySelector(config.mount) : document.body);
      if (!target()) {
        console.error(`AgentChat: no element matches mount "${config.mount}"`);
        emit("error", { message: `no element matches mount "${config.mount}"` });
        return;
      }
      const { host, ensureConnected, stop } = createHost(target);
      if (config.mount) host.setAttribute("inline", "");
      applyAppearance(host, theme, locale);
      const root = host.attachShadow({ mode: "open" });
      adoptStyles(root, css);
      const slot = document.createElement("div");
      slot.className = "slot";
      root.appendChild(slot);
      target().appendChild(host);
      const current = { host, root, config, theme, handle: null, ensureConnected, stop };
      mounted = current;
      mountedPanels.add(current);

      /** Draws the panel, once: loaded (if it is not yet), then mounted. */
      const draw = () => {
        if (current.handle) return;
        loadPanel(panelSrc, script?.nonce).then(
          (module) => {
            if (mounted !== current || current.handle) return;
            current.handle = module.mount({ root, slot, config, adoptStyles });
            redraw();
          },
          (error) => {
            console.error("AgentChat:", error.message);
            emit("error", { message: control.strings().messages.panelFailed });
            if (mounted === current) control.setOpen(false);
          },
        );
      };
      // Reaching for the launcher fetches the panel's script only: nothing is asked of the worker
      // (its history, a token) before the visitor opens it. A failure here is tried again on open.
      const prefetch = () => loadPanel(panelSrc, script?.nonce).catch(() => {});
      let redraw = () => {};
      let launcher = null;
      if (!config.mount && !config.hideLauncher) {
        ({ button: launcher, update: redraw } = createLauncher(root, control, () => current.handle !== null, prefetch));
      }
      if (!config.mount) returnFocusOnClose(root, control, () => launcher);
      if (config.mount) draw();
      else control.subscribe(() => control.isOpen() && draw());
      emit("ready", { session: config.session });
    },
    /** Unmounts the panel: its chat's streams are closed (a detached turn goes on at the agent). */
    unmount() {
      if (!mounted) return;
      mounted.stop();
      mounted.handle?.unmount();
      mounted.host.remove();
      mountedPanels.delete(mounted);
      mounted = null;
    },
    current: () => mounted?.config ?? null,
    /** Puts the host back into the page if the page took it out (global.js, before open and send). */
    ensureConnected() {
      mounted?.ensureConnected();
    },
    /** `setLocale`: the strings of `locale` (with `labels`) in the mounted panel. */
    setLocale(locale, labels) {
      if (!mounted) return;
      const resolved = resolveLocale(locale, labels);
      applyAppearance(mounted.host, mounted.theme, resolved);
      mounted.config.control.setStrings(resolved);
    },
    /** `setTheme`: this theme over the mounted panel's. */
    setTheme(theme) {
      if (!mounted) return;
      checkTheme(theme);
      mounted.theme = { ...mounted.theme, ...theme };
      applyAppearance(mounted.host, mounted.theme, mounted.config.control.strings());
    },
  };
}

/** A constructed style sheet (allowed by a page's CSP without 'unsafe-inline'), else a <style>. */
function adoptStyles(root, text) {
  if ("adoptedStyleSheets" in root && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    const style = document.createElement("style");
    style.textContent = text;
    root.prepend(style);
  }
}

// `auto` follows the reader's system when it switches.
onSchemeChange(() => {
  for (const { host, theme, config } of mountedPanels) applyAppearance(host, theme, config.control.strings());
});

const global = installGlobal(window, script, createPanel, scriptOptions);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => global.boot(), { once: true });
else global.boot();
