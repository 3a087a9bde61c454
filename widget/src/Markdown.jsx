// The agent's text as Markdown: parsed by marked, then sanitised by DOMPurify (the text is
// untrusted). Links open in a new tab without access to this page.
import { useMemo } from "preact/hooks";
import { marked } from "marked";
import DOMPurify from "dompurify";

const purify = DOMPurify(window);
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

const POLICY = {
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
  FORBID_ATTR: ["style"],
};

function toSafeHtml(text) {
  return purify.sanitize(marked.parse(text, { async: false, gfm: true }), POLICY);
}

export function Markdown({ text }) {
  const html = useMemo(() => toSafeHtml(text), [text]);
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
