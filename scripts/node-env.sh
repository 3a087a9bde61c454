# Sourced (`. scripts/node-env.sh`) by every script that runs wrangler or Miniflare: wrangler 4.164
# and miniflare 4.20260730 need Node.js 22.12 or newer. Puts first on PATH the Node.js 22 that
# scripts/ensure-tools.sh installs into .tools/node when the machine's is older (Linux x64), then
# the project's npm binaries; fails with a clear message when neither gives a new enough node.
# (Not an npm dependency of the project: that package exists for one platform only, and a
# machine whose node is new enough needs none.)
PATH="$PWD/.tools/node/node_modules/.bin:$PWD/node_modules/.bin:$PATH"
export PATH
. scripts/node-version.sh
if ! node_new_enough; then
  printf 'node-env: wrangler and miniflare need Node.js 22.12 or newer; %s is %s.\n' "$(command -v node)" "$(node --version)" >&2
  printf 'node-env: run scripts/ensure-tools.sh (it installs one on Linux x64), or install Node.js 22.\n' >&2
  exit 1
fi
