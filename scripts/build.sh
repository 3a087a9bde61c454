#!/usr/bin/env bash
# Builds the chat panel into build/public/widget.js (scripts/build-widget.mjs, esbuild: well
# under a second, so every time), then the worker into build/ (build/index.js + the wasm) with
# `worker-build --release`, offline: worker-build would otherwise download wasm-bindgen, wasm-opt
# and esbuild, so it is pointed at the ones scripts/ensure-tools.sh installed (its *_BIN
# overrides).
#
# Then the entry loses worker-build's Proxy per request (scripts/thin-entry.mjs), and the
# wasm's name section loses its symbol hashes (scripts/wasm-names.mjs: 14 KB of the
# gzipped wasm; the names themselves stay for stack traces). The production build's wasm has no
# name section at all; build/production-symbols.wasm keeps the names.
#
# Incremental: the worker's build is skipped when no input changed since the last successful
# one. The inputs are every file under src/ and vendor/, Cargo.toml, Cargo.lock, this script,
# scripts/wasm-names.mjs, scripts/thin-entry.mjs and the cargo features (bench/floor's own files
# for --floor); their hash is kept in the output directory's .inputs.sha256. `FORCE_BUILD=1`
# builds anyway.
set -euo pipefail
cd "$(dirname "$0")/.."

# `--production`: the worker without the embedded demo agent (the cargo feature `demo`; its
# class is an inert stub, src/demo_off.rs), into build/production/, for `[env.production]`, whose
# SESSION_AGENT is the agent in its own worker: 41 KB less wasm (gzip). Its own directory, so that
# a production build (a deploy, or its dry run in the tests) never replaces the local one.
#
# `--floor`: bench/floor, the smallest workers-rs worker, into bench/.build/floor, for
# bench/entry.mjs (what any Rust worker's request costs); no chat panel, names kept.
#
# `--pass-rs`: bench/pass-rs, the passthrough in Rust, into bench/.build/pass-rs, for
# `bench/instructions.mjs --with pass-rs` (what any Rust adapter's turn costs); thin entry too.
#
# `--pass-core`: bench/pass-core, the passthrough's frames handled in Rust behind a JavaScript
# request path (its src/entry.js, with bench/pass-rs's pipe.js), into bench/.build/pass-core:
# cargo, then wasm-bindgen (`--target web`) and wasm-opt `-O` (what worker-build runs), without
# worker-build's shim.
out=build
crate=.
cargo_features=()
inputs=(src vendor Cargo.toml Cargo.lock)
case "${1:-}" in
  --production)
    out=build/production
    cargo_features=(--no-default-features)
    ;;
  --floor)
    out=bench/.build/floor
    crate=bench/floor
    inputs=(bench/floor/src bench/floor/Cargo.toml bench/floor/Cargo.lock)
    # Its own target directory, beside its output: it is a workspace of its own.
    export CARGO_TARGET_DIR="$PWD/bench/.build/floor-target"
    ;;
  --pass-core)
    out=bench/.build/pass-core
    crate=bench/pass-core
    inputs=(bench/pass-core/src bench/pass-core/Cargo.toml bench/pass-core/Cargo.lock bench/pass-frames
      bench/pass-rs/src/pipe.js)
    export CARGO_TARGET_DIR="$PWD/bench/.build/pass-core-target"
    ;;
  --pass-rs)
    out=bench/.build/pass-rs
    crate=bench/pass-rs
    inputs=(bench/pass-rs/src bench/pass-rs/Cargo.toml bench/pass-rs/Cargo.lock bench/pass-frames)
    export CARGO_TARGET_DIR="$PWD/bench/.build/pass-rs-target"
    ;;
esac

if [ "$crate" = . ]; then
  node scripts/build-widget.mjs
fi

stamp=$out/.inputs.sha256
inputs_hash() {
  {
    echo "${cargo_features[*]:-default}"
    find "${inputs[@]}" scripts/build.sh scripts/wasm-names.mjs scripts/thin-entry.mjs -type f -print0 2>/dev/null \
      | LC_ALL=C sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

hash=$(inputs_hash)
if [ "${FORCE_BUILD:-}" != "1" ] && [ -f "$out/index.js" ] && [ -f "$stamp" ] \
  && [ "$(cat "$stamp")" = "$hash" ]; then
  echo "build: up to date ($out/index.js)" >&2
  exit 0
fi

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
for tool in "$cargo_bin/worker-build" "$cargo_bin/wasm-bindgen" node_modules/.bin/wasm-opt \
  node_modules/esbuild/bin/esbuild; do
  if [ ! -x "$tool" ]; then
    echo "build: $tool is missing; run scripts/ensure-tools.sh first" >&2
    exit 1
  fi
done

export WASM_BINDGEN_BIN="$cargo_bin/wasm-bindgen"
# binaryen's npm package: wasm-opt version 132, the one worker-build 0.8.7 expects.
export WASM_OPT_BIN="$PWD/node_modules/.bin/wasm-opt"
# esbuild 0.28.2, the version worker-build 0.8.7 expects (package.json pins it).
export ESBUILD_BIN="$PWD/node_modules/esbuild/bin/esbuild"

rm -f "$stamp"
if [ "$crate" = bench/pass-core ]; then
  (cd "$crate" && cargo build --release --target wasm32-unknown-unknown)
  "$WASM_BINDGEN_BIN" --target web --out-dir "$out" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/pass_core.wasm"
  "$WASM_OPT_BIN" -O "$out/pass_core_bg.wasm" -o "$out/pass_core_bg.wasm"
  # The glue as an .mjs file: Miniflare reads an imported .js file as CommonJS.
  mv "$out/pass_core.js" "$out/pass_core.mjs"
  cp "$crate/src/entry.js" "$out/index.js"
  cp bench/pass-rs/src/pipe.js "$out/pipe.mjs"
  echo "$hash" > "$stamp"
  exit 0
fi
# worker-build takes --out-dir relative to the crate.
"$cargo_bin/worker-build" --release --out-dir "$PWD/$out" "$crate" "${cargo_features[@]}"
if [ "$crate" != bench/floor ]; then
  # The entry without worker-build's Proxy per request (its panic recovery kept).
  node scripts/thin-entry.mjs "$out/index.js"
fi
# The floor stays as worker-build makes it, name section included.
if [ "$crate" != . ]; then
  :
elif [ "$out" = build/production ]; then
  # Deployed without the name section (20 KB of the gzipped wasm); the named twin stays here,
  # outside what wrangler uploads, to name the functions of a production stack trace.
  node scripts/wasm-names.mjs "$out/index_bg.wasm" --symbols build/production-symbols.wasm
else
  node scripts/wasm-names.mjs "$out/index_bg.wasm"
fi
echo "$hash" > "$stamp"
