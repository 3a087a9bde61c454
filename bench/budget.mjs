// The production wasm's size budget: `build/production/index_bg.wasm` (`scripts/build.sh
// --production`, the worker users deploy, without the demo agent) in bytes of GNU `gzip -9`.
// tests/e2e/deploy_config.test.mjs holds the build to it, so that growth is a decision, never a
// drift: a change that needs more raises the budget here, on purpose, and says why in
// bench/README.md ("The size budget").

/**
 * 240 KiB: the size with a session's files, a chat body read as a stream whose data: URL files go
 * to R2, a user's conversations and the uploads' hourly sweep (241,253 bytes, on 198,311 at the
 * round's start) and 1.9% for small changes. Raised on purpose five times this round:
 * bench/README.md, "The size budget".
 */
export const PRODUCTION_WASM_GZIP_BUDGET = 256_000;
