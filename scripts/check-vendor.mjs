// Checks that every vendored crate is its crates.io release plus the patch beside it, and nothing
// else (vendor/README.md): the release's `.crate` (fetched by scripts/ensure-tools.sh into
// Cargo's cache) is unpacked, the patch applied with `git apply`, and each vendored file must
// equal the result byte for byte; the vendored Cargo.toml may only leave lines of the release's
// out (its tests and dev-dependencies). `node scripts/check-vendor.mjs` exits 1 with the files
// that differ. Its test: tests/js/repo/check_vendor.test.mjs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, globSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The vendored crates: name, the directory of its copy, the patch. */
export const VENDORED = [{ name: "serde_json", dir: "vendor/serde_json", patch: "vendor/serde_json.patch" }];

/** The version a vendored Cargo.toml names. */
export function versionOf(dir) {
  return readFileSync(path.join(dir, "Cargo.toml"), "utf8").match(/^version = "([^"]+)"$/m)[1];
}

/** Where Cargo keeps the downloaded `.crate` of `name`-`version`, or null when it is not there. */
export function cachedCrate(name, version) {
  const cache = path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), ".cargo"), "registry", "cache");
  if (!existsSync(cache)) return null;
  for (const index of readdirSync(cache)) {
    const file = path.join(cache, index, `${name}-${version}.crate`);
    if (existsSync(file)) return file;
  }
  return null;
}

/** What differs between the copy in `dir` and the release `crate` with `patch` applied: a list
 * of lines, empty when the copy is exactly that. */
export function differences(dir, crate, patch) {
  const work = mkdtempSync(path.join(os.tmpdir(), "check-vendor-"));
  try {
    execFileSync("tar", ["-xzf", crate, "-C", work]);
    const [unpacked] = readdirSync(work);
    const release = path.join(work, unpacked);
    // Outside any repository, whatever TMPDIR is: inside one, `git apply` takes its paths from
    // that repository's root.
    execFileSync("git", ["apply", "-p1", path.resolve(patch)], { cwd: release, env: { ...process.env, GIT_CEILING_DIRECTORIES: work } });
    const problems = [];
    const copied = globSync("**/*", { cwd: dir, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
    for (const file of copied.filter((f) => f !== "Cargo.toml")) {
      const theirs = path.join(release, file);
      if (!existsSync(theirs)) problems.push(`${file}: not in the release`);
      else if (!readFileSync(theirs).equals(readFileSync(path.join(dir, file)))) problems.push(`${file}: differs from the release plus the patch`);
    }
    const sources = globSync("src/**/*.rs", { cwd: release });
    for (const file of sources) if (!copied.includes(file)) problems.push(`${file}: in the release, missing from the copy`);
    const releaseLines = new Set(readFileSync(path.join(release, "Cargo.toml"), "utf8").split("\n"));
    for (const line of readFileSync(path.join(dir, "Cargo.toml"), "utf8").split("\n")) {
      if (line.trim() && !releaseLines.has(line)) problems.push(`Cargo.toml: a line the release does not have: ${line}`);
    }
    return problems;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const { name, dir, patch } of VENDORED) {
    const version = versionOf(path.join(root, dir));
    const crate = cachedCrate(name, version);
    if (!crate) {
      console.error(`check-vendor: ${name}-${version}.crate is not in Cargo's cache: run scripts/ensure-tools.sh`);
      process.exit(1);
    }
    const problems = differences(path.join(root, dir), crate, path.join(root, patch));
    if (problems.length) {
      failed = true;
      console.error(`check-vendor: ${dir} is not ${name} ${version} plus ${patch}:\n  ${problems.join("\n  ")}`);
    } else console.log(`check-vendor: ${dir} is ${name} ${version} plus ${patch}`);
  }
  process.exit(failed ? 1 : 0);
}
