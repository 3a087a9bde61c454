// "‹ 2/3 ›" on a message that has siblings (clients/branches.js `siblingsOf`): a message of the
// visitor's that was edited, a reply that was asked again. Its buttons show the branch through
// the sibling before or after (pages.js `showBranch`). While a turn runs it keeps its place but
// is hidden (as Try again and the pencil go), so nothing around it moves. The arrows are drawn
// (panel.css) and point the reading way, right to left too; the buttons are named in the panel's
// language, and stay focusable at either end (aria-disabled), so a keyboard user's focus is kept.
import { siblingsOf } from "../../clients/branches.js";
import { format } from "./locale.js";
import { useStrings } from "./strings.js";

/** `hidden`: a turn runs. `onShow(ref, which)` shows the sibling `ref` ("prev" or "next" pressed). */
export function BranchPicker({ message, hidden, onShow }) {
  const { locale, messages: t } = useStrings();
  const siblings = siblingsOf(message);
  if (!siblings) return null;
  const { index, count, refs } = siblings;
  const n = (i) => i.toLocaleString(locale);
  return (
    <div
      class={hidden ? "branches hidden" : "branches"}
      role="group"
      aria-label={format(t.versions, { n: n(index + 1), count: n(count) })}
      data-ref={refs[index]}
    >
      <Step which="prev" label={t.previousVersion} to={refs[index - 1]} onShow={onShow} />
      <span>{`${n(index + 1)}/${n(count)}`}</span>
      <Step which="next" label={t.nextVersion} to={refs[index + 1]} onShow={onShow} />
    </div>
  );
}

/** One arrow: shows the sibling `to`, or, at an end (no `to`), does nothing. */
function Step({ which, label, to, onShow }) {
  return (
    <button
      type="button"
      class={which}
      aria-label={label}
      title={label}
      aria-disabled={to === undefined ? "true" : undefined}
      onClick={() => to !== undefined && onShow(to, which)}
    />
  );
}
