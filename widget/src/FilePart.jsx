// A file in a message, the visitor's or the agent's (a `file` part): a raster image inline, from
// its URL, a link to it; anything else a card with its name and size, a link to it. Addresses
// are checked as the Markdown's are: a link only to http(s) or blob:, an image inline only from
// the worker itself (its signed file URLs), a blob: or a data: image of this page, or, where the
// site allows images (`allowImages`), from anywhere; an image from elsewhere is a card, since
// loading it would tell another server who reads the chat.
import { formatSize, isInlineImage, sizeOf } from "./attachments.js";
import { useStrings } from "./strings.js";

const LINKS = new Set(["http:", "https:", "blob:"]);

/** `value` as a URL, or null. */
function parsed(value) {
  try {
    return new URL(value, window.location.href);
  } catch {
    return null;
  }
}

/** Where an image of `url` may load from, given the worker's origin `api`. */
function imageSource(url, mediaType, api, allowImages) {
  if (!url || !isInlineImage(mediaType)) return null;
  if (url.protocol === "blob:") return url.href;
  if (url.protocol === "data:") return isInlineImage(url.pathname.split(/[;,]/)[0]) ? url.href : null;
  if (!LINKS.has(url.protocol)) return null;
  return allowImages || url.origin === parsed(api)?.origin ? url.href : null;
}

/** `api`: the worker's origin, whose file URLs are images the panel shows. */
export function FilePart({ part, api, allowImages }) {
  const { locale, messages: t } = useStrings();
  const url = parsed(part.url);
  const href = url && LINKS.has(url.protocol) ? url.href : undefined;
  const name = part.filename || t.file;
  const src = imageSource(url, part.mediaType, api, allowImages);
  if (src) {
    const image = <img class="file-image" src={src} alt={name} />;
    return href ? (
      <a class="file-link" href={href} target="_blank" rel="noopener noreferrer">
        {image}
      </a>
    ) : (
      image
    );
  }
  const size = sizeOf(part);
  const inner = (
    <>
      <span class="file-name">{name}</span>
      <span class="file-size">{size === undefined ? part.mediaType : formatSize(size, locale)}</span>
    </>
  );
  return href ? (
    <a class="file-card" href={href} target="_blank" rel="noopener noreferrer">
      {inner}
    </a>
  ) : (
    <span class="file-card">{inner}</span>
  );
}
