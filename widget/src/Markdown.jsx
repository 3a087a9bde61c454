// The agent's text as Markdown: parsed by marked, then sanitised by DOMPurify (the text is
// untrusted). Links open in a new tab without access to this page. Images load from other
// servers (which then learn who reads the chat), so they show only where the site allows it
// (`allowImages`); elsewhere a Markdown image is a link to it, and an HTML <img> is dropped.
import { useMemo } from "preact/hooks";
import { Marked } from "marked";
import DOMPurify from "dompurify";
import { format } from "./locale.js";

const purify = DOMPurify(window);
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

const FORBID_TAGS = ["style", "form", "input", "button", "textarea", "select"];
const POLICY = { FORBID_TAGS, FORBID_ATTR: ["style"] };
const NO_IMAGES = { FORBID_TAGS: [...FORBID_TAGS, "img", "picture", "source"], FORBID_ATTR: ["style", "srcset"] };

const withImages = new Marked({ async: false, gfm: true });
/** `label`: the locale's "Image: {alt}", per parse (the renderer reads it from here). */
let imageLabel = "";
const withoutImages = new Marked({ async: false, gfm: true }).use({
  renderer: {
    image({ href, text }) {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = format(imageLabel, { alt: text || href });
      return link.outerHTML;
    },
  },
});

function toSafeHtml(text, allowImages, label) {
  if (allowImages) return purify.sanitize(withImages.parse(text), POLICY);
  imageLabel = label;
  return purify.sanitize(withoutImages.parse(text), NO_IMAGES);
}

export function Markdown({ text, allowImages, imageLabel: label }) {
  const html = useMemo(() => toSafeHtml(text, allowImages, label), [text, allowImages, label]);
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
