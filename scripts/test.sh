#!/usr/bin/env bash
# Everything `npm test` checks, in order: formatting, lints (native and wasm32), the native
# crates' tests, no import circles among the files or folders of any crate (scripts/check-circles.mjs), the
# TypeScript of the reference agent, the SessionAgent library, the AI SDK example agent and the
# Expo example (examples/expo), the pump's
# JavaScript side in Node (tests/js/), the worker build, the AI SDK conformance of the CLI
# (tests/sdk/), the end-to-end tests of the built worker in workerd (tests/e2e/), the chat panel
# in Chromium (tests/browser/), the benchmark's smoke forms (bench/run.mjs --smoke, bench/feeds.mjs
# --smoke, bench/stalled_feeds.mjs --smoke, bench/pages.mjs --smoke, bench/conversations.mjs --smoke, bench/live_lists.mjs --smoke, bench/bodies.mjs --smoke, bench/sweep.mjs --smoke, bench/retention.mjs --smoke) and the reliability suite's quick form (tests/reliability/).
# Expects scripts/ensure-tools.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/node-env.sh
. scripts/node-env.sh

# Offline: no usage metrics, no request.cf lookup.
export WRANGLER_SEND_METRICS=false
export CLOUDFLARE_CF_FETCH_ENABLED=false

# Each step says when it starts, in seconds since the start (tests/README.md's table of where the
# time goes is read from these).
step() { printf '\n==> [%4d s] %s\n' "$SECONDS" "$*" >&2; }

# Jobs run beside each other, each into a log of its own under $logs, printed whole (in the order
# they were given) once the last ended; the run fails if one did. `start NAME CMD…` starts one;
# `finish NAME…` waits for them.
logs=$(mktemp -d)
# On a failure, what still runs beside is stopped too.
stop_jobs() {
  local pid
  for pid in $(jobs -p); do
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
}
trap 'stop_jobs; rm -rf "$logs"' EXIT
declare -A pids
start() {
  local name=$1
  shift
  # A command (not a subshell around it): its pid is the command's own, whose children the e2e
  # step below counts.
  "$@" >"$logs/$name" 2>&1 &
  pids[$name]=$!
}
finish() {
  local failed=()
  for name in "$@"; do
    wait "${pids[$name]}" || failed+=("$name")
  done
  for name in "$@"; do
    printf '\n--- %s\n' "$name" >&2
    cat "$logs/$name" >&2
  done
  if [ ${#failed[@]} -gt 0 ]; then
    printf '\nfailed: %s\n' "${failed[*]}" >&2
    exit 1
  fi
}

# The checks that need neither cargo nor the build run beside the Rust steps, one at a time: those
# leave a core idle for long stretches (the release builds' LTO and links, the test binaries).
node_checks() {
  set -e
  echo "no import circles among the files or folders of any crate (scripts/check-circles.mjs)"
  node scripts/check-circles.mjs
  echo "the reference TypeScript agent and the SessionAgent library typecheck (agents/typescript, packages/session-agent)"
  node_modules/.bin/tsc -p agents/typescript
  node_modules/.bin/tsc -p packages/session-agent
  echo "the AI SDK example agent typechecks (examples/ai-sdk-agent, on the library's sources)"
  node_modules/.bin/tsc -p examples/ai-sdk-agent
  echo "the Expo example typechecks (examples/expo, against the versions its lock pins)"
  examples/expo/node_modules/.bin/tsc --noEmit -p examples/expo
  echo "the React page the docs show typechecks (examples/react)"
  node_modules/.bin/tsc -p examples/react
}
step "beside the Rust steps: import circles and the TypeScript typechecks (printed once the build is done)"
start node-checks node_checks

step "cargo fmt --check"
cargo fmt --all --check
step "cargo clippy (native, all targets, every crate)"
cargo clippy --workspace --all-targets -- -D warnings
step "cargo clippy (wasm32: the adapter, the platform and the demo agent)"
cargo clippy --workspace --target wasm32-unknown-unknown --lib -- -D warnings
step "cargo clippy (wasm32, the production build: no demo agent)"
cargo clippy -p session-agent-chat --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
step "cargo test (every crate)"
cargo test --workspace
step "beside the builds: AI SDK conformance (tests/sdk, on the CLI cargo test built; printed once the build is done)"
start sdk node --test --test-concurrency=1 tests/sdk/*.test.mjs
step "worker build (the local build: every test below runs on it)"
bash scripts/build.sh
# The production build and the mounting example each end in one long single-threaded stretch
# (LTO, wasm-opt: a core idle for about a minute), so they run beside the tests that need neither:
# the two e2e files that read them run after them, beside the other e2e files.
# tests/README.md has the figures.
late_e2e=(tests/e2e/deploy_config.test.mjs tests/e2e/mount.test.mjs)
late_builds() {
  set -e
  echo "the production build (that tests/e2e/deploy_config.test.mjs dry-runs: built here, alone, its dry run finds it up to date)"
  bash scripts/build.sh --production
  echo "the example worker that mounts the adapter (examples/mount, for tests/e2e/mount.test.mjs)"
  bash scripts/build.sh --mount-example
  echo "end to end in workerd, on those builds: ${late_e2e[*]}"
  node --test --test-concurrency=2 "${late_e2e[@]}"
}
step "beside the other e2e files: the production build, the mounting example's build, then the e2e files that read them (printed once the e2e step is done)"
start late late_builds
step "beside the e2e files: the JavaScript beside the worker, the clients, the docs and the repository's tools (tests/js/*/, on the build; printed once the e2e step is done)"
start js node --test --test-concurrency=1 tests/js/*/*.test.mjs
# Test files run at once where they share nothing (each starts its own workerd on free ports; the
# build is only read): most of an end-to-end test is waiting on timers and sockets, so more files
# than cores keep both cores busy. tests/README.md has where the time goes.
step "end to end in workerd (tests/e2e, but for the two above)"
e2e=()
for file in tests/e2e/*.test.mjs; do
  case " ${late_e2e[*]} " in
    *" $file "*) ;;
    *) e2e+=("$file") ;;
  esac
done
start e2e node --test --test-concurrency="${E2E_CONCURRENCY:-4}" "${e2e[@]}"
# The step's last files run alone for a minute, mostly on timers (a core half idle): the browser
# files start once fewer than E2E_CONCURRENCY e2e files run (the runner's direct children, one
# process a file; fewer only when it has none left to start) at three polls in a row.
below=0
while kill -0 "${pids[e2e]}" 2>/dev/null && [ "$below" -lt 3 ]; do
  sleep 2
  if [ "$(pgrep -c -P "${pids[e2e]}" || true)" -lt "${E2E_CONCURRENCY:-4}" ]; then below=$((below + 1)); else below=0; fi
done
# The chat panel's tests and the smoke forms run at once: a browser file keeps about one core busy
# (Chromium, its driver and workerd: 36 s of CPU in 36 s for widget_conversations), the smoke forms
# one after another took 65 s of CPU in 93 s, mostly timers; beside each other they end sooner
# than one after the other (236 s against 194 s and 58 s). tests/README.md has the figures.
step "beside the e2e step's last files: the chat panel in headless Chromium (tests/browser, ${BROWSER_CONCURRENCY:-3} files at once; printed once the last smoke form ended)"
start browser node --test --test-concurrency="${BROWSER_CONCURRENCY:-3}" tests/browser/*.test.mjs
step "what ran beside: import circles, the typechecks, tests/sdk, the late builds and their e2e files, tests/js, and the e2e files"
finish node-checks sdk late js e2e
step "beside the browser files: the benchmark's smoke forms and the reliability suite's quick form (${SMOKE_CONCURRENCY:-1} at once)"
# The benchmark's smoke forms and the reliability suite's quick form: each starts its own workerd
# on ports the system picks, and most of each is waiting on timers; no figure is asserted, and the
# reliability suite's bounds are far above its timers (tests/reliability/faults.mjs).
smokes=(
  "bench-run|the benchmark's smoke form (bench/run.mjs --smoke: its conformance step and one short run of each measure; no figure asserted)|node bench/run.mjs --smoke --no-build"
  "reliability|reliability suite, quick form (tests/reliability; the full form: npm run test:reliability)|node tests/reliability/run.mjs --quick"
  "feeds|idle session feeds, smoke form (bench/feeds.mjs --smoke; the full form: node bench/feeds.mjs)|node bench/feeds.mjs --smoke"
  "stalled-feeds|stalled feeds, smoke form (bench/stalled_feeds.mjs --smoke; the full form: node bench/stalled_feeds.mjs)|node bench/stalled_feeds.mjs --smoke"
  "pages|long sessions, smoke form (bench/pages.mjs --smoke; the full form: node bench/pages.mjs)|node bench/pages.mjs --smoke"
  "conversations|a user's conversations, smoke form (bench/conversations.mjs --smoke; the full form: node bench/conversations.mjs)|node bench/conversations.mjs --smoke"
  "live-lists|idle live lists, smoke form (bench/live_lists.mjs --smoke; the full form: node bench/live_lists.mjs)|node bench/live_lists.mjs --smoke"
  "bodies|large bodies, smoke form (bench/bodies.mjs --smoke; the full form: node bench/bodies.mjs)|node bench/bodies.mjs --smoke"
  "sweep|the uploads' sweep, smoke form (bench/sweep.mjs --smoke; the full form: node bench/sweep.mjs)|node bench/sweep.mjs --smoke"
  "retention|retention's run, smoke form (bench/retention.mjs --smoke; the full form: node bench/retention.mjs)|node bench/retention.mjs --smoke"
)
running=()
for smoke in "${smokes[@]}"; do
  IFS='|' read -r name what command <<<"$smoke"
  echo "  $what" >&2
  # shellcheck disable=SC2086
  start "$name" $command
  running+=("$name")
  # At most SMOKE_CONCURRENCY at once: the next starts when the oldest has ended.
  if [ ${#running[@]} -ge "${SMOKE_CONCURRENCY:-1}" ]; then
    finish "${running[0]}"
    running=("${running[@]:1}")
  fi
done
finish "${running[@]}" browser
step "done: everything passed"
