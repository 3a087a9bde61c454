// The panel's strings (the loader's resolveLocale: { locale, lang, dir, messages }) for every
// component, through a Preact context that the panel's root provides and renews on setLocale.
import { createContext } from "preact";
import { useContext } from "preact/hooks";

export const Strings = createContext(null);

/** { locale, messages }: the current locale, and its messages by key (locale.js). */
export function useStrings() {
  return useContext(Strings);
}
