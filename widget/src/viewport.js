// The popup's box on a phone, where it fills the screen: the visual viewport's height and top,
// which shrink and move when the on-screen keyboard opens (the layout viewport, and so `dvh`, do
// not on every browser), so the message box stays above the keyboard. panel.css reads them as
// --_viewport-height and --_viewport-top below its phone breakpoint.
import { useEffect } from "preact/hooks";

/** Keeps `ref`'s element's viewport properties up to date while `open`. */
export function useViewportBox(ref, open) {
  useEffect(() => {
    const viewport = window.visualViewport;
    const element = ref.current;
    if (!open || !viewport || !element) return undefined;
    const sync = () => {
      element.style.setProperty("--_viewport-height", `${viewport.height}px`);
      element.style.setProperty("--_viewport-top", `${viewport.offsetTop}px`);
    };
    sync();
    viewport.addEventListener("resize", sync);
    viewport.addEventListener("scroll", sync);
    return () => {
      viewport.removeEventListener("resize", sync);
      viewport.removeEventListener("scroll", sync);
    };
  }, [open]);
}
