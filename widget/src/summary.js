// The line under a finished answer, from the `finish` chunk's message metadata
// ({ turnId, durationMs, toolCalls, toolErrors }): "Worked for 12 s · 3 tools".

function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The summary, or null when the message has no metadata with a duration. */
export function workSummary(metadata) {
  if (typeof metadata?.durationMs !== "number") return null;
  const pieces = [`Worked for ${duration(metadata.durationMs)}`];
  if (metadata.toolCalls > 0) pieces.push(count(metadata.toolCalls, "tool", "tools"));
  if (metadata.toolErrors > 0) pieces.push(`${metadata.toolErrors} failed`);
  return pieces.join(" · ");
}
