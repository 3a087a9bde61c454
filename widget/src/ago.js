// How long ago something was, in the panel's language ("5 minutes ago", "yesterday", "3 weeks
// ago"), by Intl.RelativeTimeFormat: a conversation's last turn in the Conversations view.

/** Each unit and its length in milliseconds, the largest first (a month of 30 days, a year of 365). */
const UNITS = [
  ["year", 31_536_000_000],
  ["month", 2_592_000_000],
  ["week", 604_800_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
];

/** `time` (milliseconds since the epoch) as seen from `now`, in `locale`: "now" under a second. */
export function ago(time, now, locale) {
  const diff = time - now;
  const [unit, length] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? UNITS.at(-1);
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.trunc(diff / length), unit);
}
