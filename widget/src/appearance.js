// How the panel looks on a site: its colours, radius, font, stacking and offsets (CSS custom
// properties on the host element, which a site may also set in its own CSS), light, dark or the
// reader's scheme, and the corner it sits in. `theme` (JS) and `data-` attributes set them;
// `setTheme` changes them on a live panel.

/** `theme` key → the host's CSS custom property (the list docs/embed.md documents). */
export const THEME_PROPERTIES = {
  accent: "--agent-chat-accent",
  accentText: "--agent-chat-accent-text",
  background: "--agent-chat-background",
  surface: "--agent-chat-surface",
  text: "--agent-chat-text",
  muted: "--agent-chat-muted",
  border: "--agent-chat-border",
  link: "--agent-chat-link",
  radius: "--agent-chat-radius",
  font: "--agent-chat-font",
  zIndex: "--agent-chat-z-index",
  offsetX: "--agent-chat-offset-x",
  offsetY: "--agent-chat-offset-y",
  width: "--agent-chat-width",
  height: "--agent-chat-height",
};

export const COLOR_SCHEMES = ["light", "dark", "auto"];
export const POSITIONS = ["right", "left"];

/** The `theme` keys besides the properties: the scheme and the corner. */
const THEME_KEYS = [...Object.keys(THEME_PROPERTIES), "colorScheme", "position"];

/** Names what `theme` holds that is not a theme key, or a value out of its set, in the console. */
export function checkTheme(theme) {
  const problems = Object.keys(theme).filter((key) => !THEME_KEYS.includes(key)).map((key) => `unknown theme key ${key}`);
  if (theme.colorScheme !== undefined && !COLOR_SCHEMES.includes(theme.colorScheme)) problems.push(`colorScheme must be one of ${COLOR_SCHEMES.join(", ")}`);
  if (theme.position !== undefined && !POSITIONS.includes(theme.position)) problems.push(`position must be one of ${POSITIONS.join(", ")}`);
  for (const problem of problems) console.error(`AgentChat: ${problem} (theme keys: ${THEME_KEYS.join(", ")})`);
}

/** The reader's system setting, which `auto` follows (a change re-applies: onSchemeChange). */
const prefersDark = () => window.matchMedia("(prefers-color-scheme: dark)");

/** Calls `listener` whenever the reader's system switches between light and dark. */
export function onSchemeChange(listener) {
  prefersDark().addEventListener("change", listener);
}

/**
 * Applies `theme` ({ colorScheme, position, and any THEME_PROPERTIES key }) and the locale's
 * `lang` and `dir` to `host`. A property set to null or "" goes back to the default (the site's
 * CSS, else the panel's own). Set through the CSSOM, which a page's CSP allows without
 * 'unsafe-inline'.
 */
export function applyAppearance(host, theme, locale) {
  const scheme = COLOR_SCHEMES.includes(theme.colorScheme) ? theme.colorScheme : "light";
  host.dataset.scheme = scheme;
  host.toggleAttribute("data-dark", scheme === "dark" || (scheme === "auto" && prefersDark().matches));
  host.dataset.position = POSITIONS.includes(theme.position) ? theme.position : "right";
  for (const [key, property] of Object.entries(THEME_PROPERTIES)) {
    const value = theme[key];
    if (value === undefined || value === null || value === "") host.style.removeProperty(property);
    else host.style.setProperty(property, String(value));
  }
  host.lang = locale.lang;
  host.dir = locale.dir;
}
