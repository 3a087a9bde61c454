// The widget's sizes that README.md and docs/embed.md state are the build's: the loader's and the
// panel's gzip size (level 9, as scripts/build-widget.mjs prints them), to the tenth of a KB. Run
// after the build (npm test builds first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root, read } from "../docs/docs.mjs";

const kb = (file) => `${(gzipSync(readFileSync(path.join(root, file)), { level: 9 }).length / 1024).toFixed(1)} KB`;

test("README.md and docs/embed.md give the loader's and the panel's gzip sizes as built", () => {
  const panel = readdirSync(path.join(root, "build/public/widget")).filter((f) => /^panel-[0-9a-f]+\.js$/.test(f));
  assert.equal(panel.length, 1, "one panel in the build");
  const loader = kb("build/public/widget.js");
  const panelSize = kb(`build/public/widget/${panel[0]}`);
  assert.match(read("README.md"), new RegExp(`\`widget\\.js\` is a ${loader} gzip loader, cached 5 minutes; the panel \\(${panelSize} gzip,`));
  const embed = read("docs/embed.md");
  assert.match(embed, new RegExp(`the launcher, the API and the strings, \\*\\*${loader} gzip\\*\\*`));
  assert.match(embed, new RegExp(`inline panel: \\*\\*${panelSize} gzip\\*\\*`));
});
