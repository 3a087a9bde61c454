// A site of the browser tests' own, on another origin than the worker's, as a site owner embeds
// the widget (docs/embed.md): a strict content security policy with a nonce and a `report-uri`
// (every report it gets is kept), the embed snippet's stub, and the site's own controls (a
// button, a field). `?init=` (JSON) is queued as `AgentChat("init", …)`; `?second=` (JSON) adds
// a second widget.js tag with those data-attributes and an element `#second` to mount into.
// `window.site` records what the page saw: every event of `AgentChat.on`, and every CSP
// violation the document heard.
import { siteWorkerAndBrowser } from "./browser.mjs";

const NONCE = "c2l0ZS1ub25jZQ";

const SITE_JS = `
window.AgentChat = window.AgentChat || function () { (AgentChat.q = AgentChat.q || []).push(arguments); };
window.site = { events: [], violations: [] };
document.addEventListener("securitypolicyviolation", (e) => site.violations.push(e.violatedDirective + " " + e.blockedURI));
for (const name of ["ready", "open", "close", "message", "unread", "error", "conversation"]) AgentChat("on", name, (e) => site.events.push([name, e]));
const params = new URLSearchParams(location.search);
if (params.get("init")) AgentChat("init", JSON.parse(params.get("init")));
document.addEventListener("click", (event) => { if (event.target.id === "help") AgentChat.toggle(); });
`;

/**
 * Registers the hooks of a test file whose pages come from this site; `vars(siteOrigin)` are the
 * worker's settings. Returns { site, worker, browser, reports, url(params) }: `reports` the CSP
 * reports the site received, `url` a page of the site with `params` ({ init, second, ... }).
 */
export function embeddingSite(vars = (origin) => ({ ALLOWED_ORIGINS: origin })) {
  const reports = [];
  const setup = siteWorkerAndBrowser((req, res) => {
    const url = new URL(req.url, "http://site");
    if (url.pathname === "/csp-report") {
      let body = "";
      req.on("data", (piece) => (body += piece));
      req.on("end", () => {
        reports.push(body);
        res.writeHead(204);
        res.end();
      });
      return;
    }
    if (url.pathname === "/site.js" || url.pathname === "/site.css") {
      const js = url.pathname.endsWith(".js");
      res.writeHead(200, { "content-type": js ? "text/javascript" : "text/css" });
      res.end(js ? SITE_JS : "#second { height: 420px; }");
      return;
    }
    const worker = setup.worker.base;
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      // No 'unsafe-eval', no 'unsafe-inline': scripts by nonce (and what they add), styles from
      // the site only; every violation reported.
      "content-security-policy":
        `default-src 'none'; script-src 'nonce-${NONCE}' 'strict-dynamic'; style-src 'self'; ` +
        `connect-src http://127.0.0.1:*; img-src 'self'; report-uri /csp-report`,
    });
    const second = url.searchParams.get("second");
    const secondTag = second
      ? `<div id="second"></div><script nonce="${NONCE}" src="${worker}/widget.js" ${Object.entries(JSON.parse(second))
          .map(([k, v]) => `data-${k}="${v}"`)
          .join(" ")} async></script>`
      : "";
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<link rel="stylesheet" href="/site.css"></head>
<body><main><h1>Corner shop</h1><p>Fresh bread every morning.</p>
<label>Note <input id="note"></label> <button id="help" type="button">Help</button></main>
<script nonce="${NONCE}" src="/site.js"></script>
<script nonce="${NONCE}" src="${worker}/widget.js" async></script>${secondTag}</body></html>`);
  }, vars);
  return Object.assign(setup, {
    reports,
    url(params = {}) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) query.set(key, typeof value === "string" ? value : JSON.stringify(value));
      return `${setup.site}/?${query}`;
    },
  });
}

/** The events of `name` the page heard, in order (their details). */
export function eventsOf(page, name) {
  return page.evaluate((n) => site.events.filter(([event]) => event === n).map(([, detail]) => detail), name);
}

/** What has the focus: the site's element's id, or, inside the widget, its element's accessible name or tag. */
export function focused(page) {
  return page.evaluate(() => {
    let active = document.activeElement;
    if (active?.shadowRoot) {
      const inner = active.shadowRoot.activeElement;
      if (!inner) return "the widget's host";
      return `widget: ${inner.getAttribute("aria-label") ?? inner.textContent.trim() ?? inner.tagName}`;
    }
    return active === document.body || !active ? "body" : `#${active.id}`;
  });
}
