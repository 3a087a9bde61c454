// The line under a finished answer, from its message metadata ({ turnId, durationMs, toolCalls,
// toolErrors, stopped?, usage? }: the stream's `finish`, or a stopped turn's `message-metadata`,
// or the history's): "Worked for 12 s · 3 tools", "Stopped after 4.2 s", and with `showUsage`
// "· 1,250 tokens" where the agent reported them, in the panel's language (its digits as Intl
// writes them for the locale).
import { format, plural } from "./locale.js";

/** `ms` as the locale writes a duration ("850 ms", "4.2 s", "12 s", "3 min 5 s"), its digits by Intl. */
function duration(ms, locale, t) {
  const number = (value, digits = 0) =>
    value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (ms < 1000) return format(t.milliseconds, { n: number(Math.round(ms)) });
  const seconds = ms / 1000;
  if (seconds < 10) return format(t.seconds, { n: number(seconds, 1) });
  if (seconds < 60) return format(t.seconds, { n: number(Math.round(seconds)) });
  const whole = Math.round(seconds);
  return format(t.minutes, { m: number(Math.floor(whole / 60)), s: number(whole % 60) });
}

/**
 * The summary, or null when the message has no metadata to say anything with. `strings`: the
 * panel's { locale, messages }. A stopped turn (`stopped`: its stream ended with the metadata
 * of a stop, or the visitor stopped it here) says so, with how long it ran when that is known.
 */
export function workSummary(metadata, { locale, messages: t }, { showUsage = false } = {}) {
  const hasDuration = typeof metadata?.durationMs === "number";
  if (!hasDuration && metadata?.stopped !== true) return null;
  const took = hasDuration ? duration(metadata.durationMs, locale, t) : null;
  const pieces = [];
  if (metadata.stopped === true) pieces.push(took ? format(t.stoppedAfter, { duration: took }) : t.stopped);
  else pieces.push(format(t.workedFor, { duration: took }));
  if (metadata.toolCalls > 0) pieces.push(plural(t.toolCount, metadata.toolCalls, locale));
  if (metadata.toolErrors > 0) pieces.push(plural(t.failedCount, metadata.toolErrors, locale));
  const tokens = showUsage ? usedTokens(metadata.usage) : null;
  if (tokens !== null) pieces.push(plural(t.tokenCount, tokens, locale));
  return pieces.join(" · ");
}

/** The tokens in and out of `usage` (the agent's, protocol 3), or null when it counted none. */
function usedTokens(usage) {
  const count = (n) => (Number.isSafeInteger(n) && n >= 0 ? n : null);
  const input = count(usage?.inputTokens);
  const output = count(usage?.outputTokens);
  return input === null && output === null ? null : (input ?? 0) + (output ?? 0);
}
