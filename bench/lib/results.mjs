// Where a bench script keeps its figures: `bench/results/<name>.json`, with the commit, the date
// and the machine they were measured on, so that a README row can name its run.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { machine } from "./proc.mjs";
import { benchDir, root } from "./workers.mjs";

/** The short hash of HEAD, with " + uncommitted changes" when the worker's sources differ from it. */
export function sourceCommit() {
  const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const changed = execFileSync("git", ["status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock", "scripts"], { cwd: root, encoding: "utf8" }).trim();
  return changed ? `${head} + uncommitted changes` : head;
}

/** Writes `figures` (with `config`) to bench/results/<name>.json; returns the file's path. */
export function writeResults(name, config, figures) {
  const out = path.join(benchDir, "results", `${name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  const record = { date: new Date().toISOString(), commit: sourceCommit(), machine: machine(), config, ...figures };
  writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
  return out;
}
