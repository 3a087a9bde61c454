// Loads the panel once, as a classic script: a cross-origin script tag needs no CORS headers,
// and with the loader's nonce it passes a page's nonce-based CSP. The panel's script hands its
// module over through a registry key (PANEL_KEY) that only these two scripts know.
//
// The panel's file is versioned (`widget/panel-<hash of its bytes>.js`, scripts/build-widget.mjs),
// so browsers and CDNs keep it for a year; the loader, which names it, is cached for minutes
// (build/public/_headers). A loader cached from the deploy before asks for a panel that deploy
// had and this one has not: it falls back on `widget-panel.js`, the current panel under a name
// that is never cached long, which the version check below accepts while the module's shape is
// the same.

/** The global registry key the panel's script calls with its module ({ version, mount }). */
export const PANEL_KEY = Symbol.for("session-agent-chat:panel");
/** Raised with the panel's module shape: a loader and a panel of different versions refuse each other. */
export const PANEL_VERSION = 1;
/** This build's panel file (set by scripts/build-widget.mjs), and the name of the current one. */
export const PANEL_FILE = typeof __PANEL_FILE__ === "string" ? __PANEL_FILE__ : "widget-panel.js";
export const CURRENT_PANEL_FILE = "widget-panel.js";

let loading = null;

/** Adds the script at `src`; resolves with the module it hands over. */
function addScript(src, nonce) {
  return new Promise((resolve, reject) => {
    globalThis[PANEL_KEY] = (module) => {
      if (module?.version === PANEL_VERSION) resolve(module);
      else reject(new Error(`${src} is version ${module?.version}, this loader needs ${PANEL_VERSION}: serve both from one build`));
    };
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
}

/**
 * The panel's module, loaded from `src` on the first call (later calls share it), else from
 * `current` (the current panel, CURRENT_PANEL_FILE beside the loader). A failed load is
 * forgotten, so the next call tries again.
 */
export function loadPanel({ src, current }, nonce) {
  loading ??= addScript(src, nonce)
    .catch(() => addScript(current, nonce))
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}
