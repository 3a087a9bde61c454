#!/usr/bin/env bash
# Builds one of the benchmark's Rust workers into bench/.build/<name>/ (incremental, offline:
# scripts/build-tools.sh). Each is a cargo workspace of its own, with its own target directory
# beside its output. Usage: bash bench/build.sh floor|pass-rs|pass-core
#
# * `floor`: bench/floor, the smallest workers-rs worker, for bench/entry.mjs and bench/cold.mjs
#   (what any Rust worker's request and cold start cost), as worker-build makes it, names kept.
# * `pass-rs`: bench/pass-rs, the passthrough in Rust, for `bench/instructions.mjs --with
#   pass-rs` (what any Rust adapter's turn costs); its entry thinned as this worker's is.
# * `pass-core`: bench/pass-core, the passthrough's frames handled in Rust behind a JavaScript
#   request path (its src/entry.js, with bench/pass-rs's pipe.js): cargo, then wasm-bindgen
#   (`--target web`) and wasm-opt `-O` (what worker-build runs), without worker-build's shim.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/build-tools.sh
. scripts/build-tools.sh

name="${1:-}"
case "$name" in
  floor) inputs=(bench/floor/src bench/floor/Cargo.toml bench/floor/Cargo.lock) ;;
  pass-rs) inputs=(bench/pass-rs/src bench/pass-rs/Cargo.toml bench/pass-rs/Cargo.lock bench/pass-frames) ;;
  pass-core)
    inputs=(bench/pass-core/src bench/pass-core/Cargo.toml bench/pass-core/Cargo.lock bench/pass-frames
      bench/pass-rs/src/pipe.js)
    ;;
  *)
    echo "usage: bash bench/build.sh floor|pass-rs|pass-core" >&2
    exit 2
    ;;
esac
crate=bench/$name
out=bench/.build/$name
export CARGO_TARGET_DIR="$PWD/bench/.build/$name-target"

hash=$(inputs_hash "$name" "${inputs[@]}" bench/build.sh scripts/build-tools.sh scripts/thin-entry.mjs)
if up_to_date "$out" "$hash"; then
  echo "build: up to date ($out/index.js)" >&2
  exit 0
fi
require_build_tools
rm -f "$out/.inputs.sha256"
if [ "$name" = pass-core ]; then
  (cd "$crate" && cargo build --release --target wasm32-unknown-unknown)
  "$WASM_BINDGEN_BIN" --target web --out-dir "$out" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/pass_core.wasm"
  "$WASM_OPT_BIN" -O "$out/pass_core_bg.wasm" -o "$out/pass_core_bg.wasm"
  # The glue as an .mjs file: Miniflare reads an imported .js file as CommonJS.
  mv "$out/pass_core.js" "$out/pass_core.mjs"
  cp "$crate/src/entry.js" "$out/index.js"
  cp bench/pass-rs/src/pipe.js "$out/pipe.mjs"
else
  # worker-build takes --out-dir relative to the crate.
  "$cargo_bin/worker-build" --release --out-dir "$PWD/$out" "$crate"
  if [ "$name" = pass-rs ]; then
    # The entry without worker-build's Proxy per request, as this worker's.
    node scripts/thin-entry.mjs "$out/index.js"
  fi
fi
echo "$hash" > "$out/.inputs.sha256"
