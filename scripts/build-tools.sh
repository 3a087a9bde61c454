# Sourced by scripts/build.sh and bench/build.sh: the offline tools worker-build runs (it would
# otherwise download wasm-bindgen, wasm-opt and esbuild), pointed at the ones
# scripts/ensure-tools.sh installed through worker-build's *_BIN overrides; and the incremental
# build's stamp: a build is skipped when the hash of its inputs equals the one kept in its output
# directory's .inputs.sha256 (`FORCE_BUILD=1` builds anyway).

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"

# Fails with a clear message when a tool is missing.
require_build_tools() {
  local tool
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
}

# The hash of the files under the paths given (and of $1, a word for the options).
inputs_hash() {
  local options="$1"
  shift
  {
    echo "$options"
    find "$@" -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

# True (exit 0) when $1/index.js exists and $1/.inputs.sha256 holds the hash $2.
up_to_date() {
  [ "${FORCE_BUILD:-}" != "1" ] && [ -f "$1/index.js" ] && [ -f "$1/.inputs.sha256" ] \
    && [ "$(cat "$1/.inputs.sha256")" = "$2" ]
}
