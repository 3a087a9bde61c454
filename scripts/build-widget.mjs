// Bundles the widget into the worker's static assets, minified, and reports their sizes gzipped:
// build/public/widget.js, the loader a page embeds (widget/src/loader.js: the launcher and the
// page's API, no dependencies), and build/public/widget-panel.js, the panel it loads on first open
// (widget/src/panel-entry.jsx: Preact through preact/compat for the AI SDK's React hooks,
// streaming-markdown). Run by scripts/build.sh.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "build/public");

// The AI SDK's `ai` imports zod v4 as `import { z } from "zod/v4"`: the namespace object `z`,
// which a bundler cannot tree-shake, so all of zod (its error messages in ~50 languages too,
// ~260 KB minified) would ship. `import * as z from "zod/v4"` has the same members (that module
// re-exports every one of `z`'s), and esbuild keeps only those used: 130 → 106 KB gzip.
const zodByMember = {
  name: "zod-by-member",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]ai[\\/]dist[\\/]index\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      return {
        contents: source.replace(
          /import \{ z(?: as (\w+))? \} from "zod\/v4";/g,
          (_, name) => `import * as ${name ?? "z"} from "zod/v4";`,
        ),
        loader: "js",
      };
    });
  },
};

await build({
  entryPoints: [
    { in: path.join(root, "widget/src/loader.js"), out: "widget" },
    { in: path.join(root, "widget/src/panel-entry.jsx"), out: "widget-panel" },
  ],
  outdir,
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  alias: {
    react: "preact/compat",
    "react-dom": "preact/compat",
    "react/jsx-runtime": "preact/jsx-runtime",
    // See widget/shims/zod-v3.js: 110 → 97 KB gzip.
    "zod/v3": path.join(root, "widget/shims/zod-v3.js"),
  },
  loader: { ".css": "text" },
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [zodByMember],
  logLevel: "warning",
});

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const name of ["widget.js", "widget-panel.js"]) {
  const bytes = readFileSync(path.join(outdir, name));
  console.error(`build-widget: build/public/${name} ${kb(bytes.length)}, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip`);
}
