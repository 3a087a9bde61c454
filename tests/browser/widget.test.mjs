// The widget embedded by one script tag in a third-party page of another origin, with hostile
// CSS (important rules on every element) and a content security policy that allows no inline
// style: it opens from its launcher, chats, keeps its own look, and leaves the page as it was.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { siteWorkerAndBrowser, panel, sendPrompt, until, squashed } from "./browser.mjs";

const HOSTILE_CSS = `
html { font-size: 50px !important; }
* { font: italic 31px/3 "Comic Sans MS", cursive !important; color: rgb(255, 0, 0) !important;
    box-sizing: content-box !important; letter-spacing: 4px !important; }
body * { position: static !important; z-index: 0 !important; }
div, section, form, header, textarea, details { border: 7px dashed lime !important;
    padding: 40px !important; margin: 30px !important; }
button { background: rgb(0, 0, 255) !important; width: 400px !important; }
textarea { visibility: hidden !important; }
`;

const BODY = `
<h1 id="title">Corner shop</h1>
<p class="copy">Fresh bread every morning.</p>
<div class="box"><button id="buy" type="button">Buy</button><textarea id="note">a note</textarea></div>`;

/** The host page, with the widget's script tag when `widget` is set. */
function page({ widget, workerBase, session }) {
  const tag = widget
    ? `<script src="${workerBase}/widget.js" data-session="${session}" data-title="Shop help" async></script>`
    : "";
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<link rel="stylesheet" href="/hostile.css"></head><body>${BODY}${tag}</body></html>`;
}

const session = sessionId("widget");

const setup = siteWorkerAndBrowser((req, res) => {
  if (req.url === "/hostile.css") {
    res.writeHead(200, { "content-type": "text/css" });
    res.end(HOSTILE_CSS);
    return;
  }
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    // No 'unsafe-inline' style: the widget's styles must not need it.
    "content-security-policy": `default-src 'none'; style-src 'self'; script-src ${setup.worker.base}; connect-src ${setup.worker.base}`,
  });
  res.end(page({ widget: req.url === "/embed", workerBase: setup.worker.base, session }));
});

/** Every element of the page's own (the widget's host left out): its markup, box and look. */
function pageElements(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.tagName !== "SESSION-AGENT-CHAT" && el.tagName !== "SCRIPT")
      .map((el) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return {
          html: el.outerHTML,
          box: [box.x, box.y, box.width, box.height],
          style: ["font", "color", "border", "padding", "margin", "visibility", "background-color"].map((p) =>
            style.getPropertyValue(p),
          ),
        };
      }),
  );
}

describe("widget", () => {
  test("on a hostile page it opens, chats, keeps its look, and leaves the page's elements as they were", async () => {
    const plain = await setup.browser.newPage();
    await plain.goto(`${setup.site}/plain`);
    const before = await pageElements(plain);
    assert.match(before[0].style[0], /italic .*31px/, "the hostile CSS applies to the page");

    const host = await setup.browser.newPage();
    const violations = [];
    host.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
    await host.goto(`${setup.site}/embed`);
    const launcher = host.getByRole("button", { name: "Open chat" });
    await launcher.click();
    const { message, send, answers, tools } = panel(host);
    await message.waitFor();

    // The page's rules reach none of the panel: not its fonts, borders, visibility or position.
    const look = await message.evaluate((el) => {
      const style = getComputedStyle(el);
      const hostStyle = getComputedStyle(el.getRootNode().host);
      return {
        fontSize: style.fontSize,
        fontStyle: style.fontStyle,
        color: style.color,
        visibility: style.visibility,
        border: style.borderTopStyle,
        hostPosition: hostStyle.position,
      };
    });
    assert.deepEqual(look, {
      fontSize: "14px",
      fontStyle: "normal",
      color: "rgb(31, 35, 40)",
      visibility: "visible",
      border: "solid",
      hostPosition: "fixed",
    });
    const box = await message.boundingBox();
    assert.ok(box.x + box.width <= 1100 && box.y + box.height <= 720, `in the viewport: ${JSON.stringify(box)}`);

    await sendPrompt(host, "Do you deliver?");
    await send.waitFor({ timeout: 20_000 });
    await until(async () => squashed(await answers.first().innerText()).length > 20, "the answer");
    assert.equal(await tools.count(), 1);
    assert.match(squashed(await tools.first().locator(".tool-summary").innerText()).toLowerCase(), /^search_docs done$/);

    await host.getByRole("button", { name: "Close chat" }).click();
    await launcher.waitFor();
    assert.deepEqual(await pageElements(host), before);
    assert.deepEqual(violations, []);
    assert.deepEqual(host.errors, []);
  });
});
