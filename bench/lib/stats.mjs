// Small statistics helpers.

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** The p-th percentile (0–100), nearest-rank on sorted values. */
export function percentile(values, p) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const rank = Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1));
  return v[rank];
}

/** min / median / max of a list, for the results file. */
export function spread(values) {
  const v = values.filter((x) => Number.isFinite(x));
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), runs: v.length };
}

/** `order` rotated by `i`: each repetition starts with another worker, so drift hits all alike. */
export function rotate(order, i) {
  const k = i % order.length;
  return [...order.slice(k), ...order.slice(0, k)];
}

/** Each run's `a[i] / b[i]`: runs taken moments apart, so drift between runs cancels. */
export function pairedRatios(a, b) {
  return a.map((x, i) => x / b[i]);
}
