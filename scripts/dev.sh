#!/usr/bin/env bash
# Serves the worker and its demo agent on http://127.0.0.1:8787 with `wrangler dev`, offline.
# wrangler runs the build command of wrangler.toml (scripts/build.sh) itself, incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/node-env.sh
. scripts/node-env.sh
export WRANGLER_SEND_METRICS=false
export CLOUDFLARE_CF_FETCH_ENABLED=false
# `--agent PATH/wrangler.toml [--env NAME] [--class NAME]`: the adapter in front of your own agent
# instead of the demo one (scripts/dev-agent.mjs; docs/your-agent.md, "Try it in the panel").
if [ "${1:-}" = "--agent" ]; then
  exec node scripts/dev-agent.mjs "$@"
fi
# `--env demo`: the embedded demo agent, no auth (wrangler.toml); for 127.0.0.1 only, unless
# DEV_IP says otherwise: `DEV_IP=0.0.0.0` lets a phone on the network reach it (docs/mobile.md),
# and everyone else on that network too.
exec node_modules/.bin/wrangler dev --env demo --ip "${DEV_IP:-127.0.0.1}" --port "${PORT:-8787}" "$@"
