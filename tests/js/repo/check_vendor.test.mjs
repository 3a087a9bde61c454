// The vendored crates are their crates.io release plus the patch beside them (scripts/
// check-vendor.mjs, vendor/README.md): the copy as it is passes; a copy with one byte changed,
// a file added, a source left out or a Cargo.toml line of its own fails, naming the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VENDORED, cachedCrate, differences, versionOf } from "../../../scripts/check-vendor.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

for (const { name, dir, patch } of VENDORED) {
  const copy = path.join(root, dir);
  const version = versionOf(copy);
  const crate = cachedCrate(name, version);

  test(`${dir} is ${name} ${version} plus its patch`, () => {
    assert.ok(crate, `${name}-${version}.crate is in Cargo's cache (scripts/ensure-tools.sh fetches it)`);
    assert.deepEqual(differences(copy, crate, path.join(root, patch)), []);
  });

  test(`a changed copy of ${dir} is caught, file by file`, () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "vendor-copy-"));
    try {
      cpSync(copy, work, { recursive: true });
      writeFileSync(path.join(work, "src/lib.rs"), `${readFileSync(path.join(work, "src/lib.rs"), "utf8")}\n// changed\n`);
      writeFileSync(path.join(work, "src/extra.rs"), "// not in the release\n");
      unlinkSync(path.join(work, "src/raw.rs"));
      writeFileSync(path.join(work, "Cargo.toml"), `${readFileSync(path.join(work, "Cargo.toml"), "utf8")}\nmine_of_our_own = []\n`);
      const found = differences(work, crate, path.join(root, patch));
      assert.deepEqual(found.map((line) => line.split(":")[0]).sort(), ["Cargo.toml", "src/extra.rs", "src/lib.rs", "src/raw.rs"]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}
