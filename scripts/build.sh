#!/usr/bin/env bash
# Builds the chat panel into build/public/widget.js (scripts/build-widget.mjs, esbuild: well
# under a second, so every time), then the worker into build/ (build/index.js + the wasm) with
# `worker-build --release`, offline (scripts/build-tools.sh).
#
# Then the entry loses worker-build's Proxy per request (scripts/thin-entry.mjs), and the
# wasm's name section loses its symbol hashes (scripts/wasm-names.mjs: 14 KB of the
# gzipped wasm; the names themselves stay for stack traces). The production build's wasm has no
# name section at all; build/production-symbols.wasm keeps the names.
#
# Incremental: the worker's build is skipped when no input changed since the last successful
# one. The inputs are every file under src/, crates/ and vendor/, Cargo.toml, Cargo.lock, this
# script, scripts/build-tools.sh, scripts/wasm-names.mjs, scripts/thin-entry.mjs and the cargo
# features; their hash is kept in the output directory's .inputs.sha256. `FORCE_BUILD=1` builds
# anyway. The benchmark's own Rust workers are built by bench/build.sh.
#
# `--production`: the worker without the demo agent (the cargo feature `demo`; its class is an
# inert stub, src/demo_off.rs), into build/production/, for `[env.production]`, whose
# SESSION_AGENT is the agent in its own worker. Its own directory, so that a production build
# (a deploy, or its dry run in the tests) never replaces the local one.
#
# `--mount-example`: examples/mount, a worker of its own that mounts the adapter, into
# examples/mount/build/ (its wrangler.toml's `main`), as a user's worker-build makes it: no
# thin entry, names kept.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-tools.sh
. scripts/build-tools.sh

out=build
crate=.
cargo_features=()
inputs=(src crates vendor Cargo.toml Cargo.lock)
case "${1:-}" in
  "") ;;
  --production)
    out=build/production
    cargo_features=(--no-default-features)
    ;;
  --mount-example)
    out=examples/mount/build
    crate=examples/mount
    inputs=(examples/mount/src examples/mount/Cargo.toml crates Cargo.toml Cargo.lock vendor)
    ;;
  *)
    echo "usage: bash scripts/build.sh [--production | --mount-example]" >&2
    exit 2
    ;;
esac

if [ "$crate" = . ]; then
  node scripts/build-widget.mjs
fi

hash=$(inputs_hash "${cargo_features[*]:-default}" "${inputs[@]}" scripts/build.sh \
  scripts/build-tools.sh scripts/wasm-names.mjs scripts/thin-entry.mjs)
if up_to_date "$out" "$hash"; then
  echo "build: up to date ($out/index.js)" >&2
  exit 0
fi
require_build_tools
rm -f "$out/.inputs.sha256"
# worker-build takes --out-dir relative to the crate.
"$cargo_bin/worker-build" --release --out-dir "$PWD/$out" "$crate" "${cargo_features[@]}"
if [ "$crate" = . ]; then
  # The entry without worker-build's Proxy per request (its panic recovery kept).
  node scripts/thin-entry.mjs "$out/index.js"
  if [ "$out" = build/production ]; then
    # Deployed without the name section (20 KB of the gzipped wasm); the named twin stays here,
    # outside what wrangler uploads, to name the functions of a production stack trace.
    node scripts/wasm-names.mjs "$out/index_bg.wasm" --symbols build/production-symbols.wasm
  else
    node scripts/wasm-names.mjs "$out/index_bg.wasm"
  fi
fi
echo "$hash" > "$out/.inputs.sha256"
