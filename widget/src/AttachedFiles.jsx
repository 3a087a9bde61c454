// The files attached to the message being written (attachments.js), above the message box: an
// image's thumbnail, drawn on a canvas from the file itself (no URL to load, so no page's
// `img-src` can stop it), or a file's name and size; a progress bar while it uploads; its error
// in words, with a Retry where one can help; and a button that takes it off the message.
import { useEffect, useRef } from "preact/hooks";
import { format } from "./locale.js";
import { formatSize, isInlineImage, uploadErrorText } from "./attachments.js";
import { useStrings } from "./strings.js";

/** The thumbnail's side, in CSS pixels (drawn at twice that, for sharp screens). */
const SIDE = 48;

/** An image file, cropped to a square as a thumbnail; `name` is what a screen reader hears. */
function Thumbnail({ file, name }) {
  const canvas = useRef(null);
  useEffect(() => {
    let current = true;
    // Decoded at about the thumbnail's size, where the browser can.
    createImageBitmap(file, { resizeWidth: SIDE * 2 })
      .catch(() => createImageBitmap(file))
      .then((bitmap) => {
        if (current && canvas.current) {
          const scale = Math.max((SIDE * 2) / bitmap.width, (SIDE * 2) / bitmap.height);
          const [w, h] = [bitmap.width * scale, bitmap.height * scale];
          canvas.current.getContext("2d").drawImage(bitmap, (SIDE * 2 - w) / 2, (SIDE * 2 - h) / 2, w, h);
        }
        bitmap.close();
      })
      .catch(() => {
        // Not an image a browser decodes: the tile keeps its name.
      });
    return () => {
      current = false;
    };
  }, [file]);
  return <canvas class="thumb" ref={canvas} width={SIDE * 2} height={SIDE * 2} role="img" aria-label={name} />;
}

/** `attachments`: useAttachments's; `onRemoved()`, after a file was taken off (its button went with it). */
export function AttachedFiles({ attachments, onRemoved }) {
  const { locale, messages: t } = useStrings();
  if (attachments.items.length === 0) return null;
  return (
    <ul class="attachments" aria-label={t.attachments}>
      {attachments.items.map((item) => {
        const { file } = item;
        const name = file.name || t.file;
        const image = isInlineImage(file.type);
        return (
          <li key={item.id} class={`attachment attachment-${item.status}`}>
            {image && <Thumbnail file={file} name={name} />}
            <span class="attachment-text">
              <span class="file-name">{name}</span>
              <span class="file-size">{formatSize(file.size, locale)}</span>
            </span>
            {item.status === "uploading" && (
              <progress max={file.size || 1} value={item.loaded} aria-label={format(t.uploadingFile, { name })} />
            )}
            {item.status === "failed" && (
              <span class="attachment-error" role="alert">
                {uploadErrorText(item.error, item, t, locale)}
                {item.canRetry && (
                  <button type="button" onClick={() => attachments.retry(item.id)}>
                    {t.retry}
                  </button>
                )}
              </span>
            )}
            <button
              type="button"
              class="remove"
              aria-label={format(t.removeFile, { name })}
              title={format(t.removeFile, { name })}
              onClick={() => {
                attachments.remove(item.id);
                onRemoved();
              }}
            />
          </li>
        );
      })}
    </ul>
  );
}
