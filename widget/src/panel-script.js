// Loads the panel (widget-panel.js, beside widget.js) once, as a classic script: a cross-origin
// script tag needs no CORS headers, and with the loader's nonce it passes a page's nonce-based
// CSP. The panel's script hands its module over through a registry key (PANEL_KEY) that only
// these two scripts know.

/** The global registry key the panel's script calls with its module ({ version, mount }). */
export const PANEL_KEY = Symbol.for("session-agent-chat:panel");
/** Raised with the panel's module shape: a loader and a panel of different versions refuse each other. */
export const PANEL_VERSION = 1;

let loading = null;

/**
 * The panel's module, loaded from `src` on the first call (later calls share it). A failed load
 * is forgotten, so the next call tries again.
 */
export function loadPanel(src, nonce) {
  loading ??= new Promise((resolve, reject) => {
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
  }).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}
