# Sourced by scripts/ensure-tools.sh and scripts/node-env.sh: whether a node binary (default:
# the one on PATH) is new enough for wrangler 4.164 and miniflare 4.20260730, whose package.json
# `engines` ask for Node.js 22.12 or newer.
node_new_enough() {
  "${1:-node}" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}
