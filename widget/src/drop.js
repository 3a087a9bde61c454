// Files dragged onto the panel's conversation: while they are over it the panel says where to
// drop them, and once dropped they are attached to the message being written (attachments.js).
import { useState } from "preact/hooks";

/**
 * Files dragged over the conversation: { over, handlers }, `over` while some are (the panel
 * says where to drop them). Dropped, they are attached; with `on` false (the site's
 * `attachments: false`), a drop is none of the panel's business.
 */
export function useDrop(attachments, on) {
  const [over, setOver] = useState(false);
  const carriesFiles = (event) => on && [...(event.dataTransfer?.types ?? [])].includes("Files");
  const enter = (event) => {
    if (!carriesFiles(event)) return;
    // Taken: the browser would open a file dropped here in place of the page.
    event.preventDefault();
    event.dataTransfer.dropEffect = attachments.enabled ? "copy" : "none";
    if (attachments.enabled) setOver(true);
  };
  return {
    over,
    handlers: {
      onDragEnter: enter,
      onDragOver: enter,
      onDragLeave: (event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOver(false);
      },
      onDrop: (event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setOver(false);
        attachments.add(event.dataTransfer.files);
      },
    },
  };
}
