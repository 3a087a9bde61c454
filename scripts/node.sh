#!/usr/bin/env bash
# Runs a Node.js script with the project's Node.js 22 (scripts/node-env.sh): `bash scripts/node.sh
# bench/run.mjs …`. The npm scripts that run wrangler or Miniflare go through it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh
exec node "$@"
