// Bundles the chat panel (widget/src/main.jsx, Preact through preact/compat for the AI SDK's
// React hooks) into build/public/widget.js, the worker's static asset, minified, and reports
// its size gzipped. Run by scripts/build.sh.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = path.join(root, "build/public/widget.js");

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
  entryPoints: [path.join(root, "widget/src/main.jsx")],
  outfile,
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
  },
  loader: { ".css": "text" },
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [zodByMember],
  logLevel: "warning",
});

const bytes = readFileSync(outfile);
const gzipped = gzipSync(bytes, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.error(`build-widget: build/public/widget.js ${kb(bytes.length)}, ${kb(gzipped)} gzip`);
