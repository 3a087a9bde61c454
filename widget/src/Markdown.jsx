// The agent's text as Markdown, rendered as it streams by streaming-markdown: each delta is
// parsed once and appended to the DOM (a whole-text parse per delta would cost the square of the
// message's length). The text is untrusted, and safe by construction: the parser makes only its
// own elements (paragraphs, emphasis, code, lists, tables, links…) and text nodes, never markup
// from the text (HTML in it shows as text); this renderer lets a link or image through only with
// an http(s) or mailto address. Links open in a new tab without access to this page. Images load
// from other servers (which then learn who reads the chat), so they show only where the site
// allows it (`allowImages`); elsewhere an image is a link to it.
import { useLayoutEffect, useRef } from "preact/hooks";
import * as smd from "streaming-markdown";

/** The address schemes a link or image may have: the web's and mail. */
const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);

function safeUrl(value) {
  try {
    const url = new URL(value, window.location.href);
    return SAFE_SCHEMES.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * streaming-markdown's DOM renderer for `root`, with addresses checked, links opening apart, and
 * images as links unless `allowImages` (`imageLabel`: the locale's "Image: {alt}").
 */
function renderer(root, allowImages, imageLabel) {
  const base = smd.default_renderer(root);
  const [before, after = ""] = imageLabel.split("{alt}");
  /** Per open token: the text to add when it ends (an image link's label's tail). */
  const tails = [];
  return {
    ...base,
    add_token(data, type) {
      if (type === smd.IMAGE && !allowImages) {
        smd.default_add_token(data, smd.LINK);
        smd.default_add_text(data, before);
        tails.push(after);
      } else {
        smd.default_add_token(data, type);
        tails.push("");
      }
      const node = data.nodes[data.index];
      if (node.tagName === "A") {
        node.target = "_blank";
        node.rel = "noopener noreferrer";
      }
    },
    end_token(data) {
      const tail = tails.pop();
      if (tail) smd.default_add_text(data, tail);
      // An image's text is its description: the alt attribute, not content.
      const node = data.nodes[data.index];
      if (node.tagName === "IMG") {
        node.alt = node.textContent;
        node.textContent = "";
      }
      smd.default_end_token(data);
    },
    set_attr(data, type, value) {
      if (type === smd.HREF || type === smd.SRC) {
        const url = safeUrl(value);
        const node = data.nodes[data.index];
        if (url !== null) node.setAttribute(node.tagName === "IMG" ? "src" : "href", url);
        return;
      }
      smd.default_set_attr(data, type, value);
    },
  };
}

/**
 * `text`: the part's text so far; `done`: it will not grow (its part is no longer streaming), so
 * what the parser holds back (a lone `*` that may open emphasis) is written out.
 */
export function Markdown({ text, done, allowImages, imageLabel }) {
  const element = useRef(null);
  const state = useRef(null);
  useLayoutEffect(() => {
    let current = state.current;
    // A new text (not this one grown, or grown after its end), or other settings: start over.
    const fresh =
      !current ||
      !text.startsWith(current.written) ||
      (current.ended && text !== current.written) ||
      current.allowImages !== allowImages ||
      current.imageLabel !== imageLabel;
    if (fresh) {
      element.current.textContent = "";
      current = state.current = {
        parser: smd.parser(renderer(element.current, allowImages, imageLabel)),
        written: "",
        ended: false,
        allowImages,
        imageLabel,
      };
    }
    if (text.length > current.written.length) {
      smd.parser_write(current.parser, text.slice(current.written.length));
      current.written = text;
    }
    if (done && !current.ended) {
      smd.parser_end(current.parser);
      current.ended = true;
    }
  }, [text, done, allowImages, imageLabel]);
  return <div class="markdown" ref={element} />;
}
