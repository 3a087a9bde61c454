// Bundles the widget into the worker's static assets, minified, and reports their sizes gzipped:
// build/public/widget.js, the loader a page embeds (widget/src/loader.js: the launcher and the
// page's API, no dependencies), and the panel it loads on first open (widget/src/panel-entry.jsx:
// Preact through preact/compat for the AI SDK's React hooks, streaming-markdown) as
// build/public/widget/panel-<version>.js, cached for good, and build/public/widget-panel.js, the
// current one for a loader of an earlier deploy; build/public/_headers says how long each is
// cached. Run by scripts/build.sh.
import { build, transform } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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

// The panel's and the loader's styles go in as text (adopted into the widget's shadow root),
// minified: without their comments and spaces, 0.9 KB gzip less of the panel and 0.4 KB of the
// loader.
const minifiedCss = {
  name: "minified-css",
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await transform(await readFile(args.path, "utf8"), { loader: "css", minify: true });
      return { contents: code, loader: "text" };
    });
  },
};

/** esbuild's options shared by the two bundles. */
const common = {
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
  plugins: [minifiedCss],
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
  write: false,
};

/**
 * How long browsers and CDNs keep each file (Workers static assets read `_headers`): the panel
 * under its versioned name for a year, as it never changes; its current copy and the loader for
 * minutes at most, so that a deploy reaches every page within LOADER_MAX_AGE_SECS.
 */
const LOADER_MAX_AGE_SECS = 300; // 5 minutes: how long a deploy may take to reach every page view
const VERSIONED_MAX_AGE_SECS = 31_536_000; // a year: the usual `immutable` lifetime (RFC 8246's example)
const PANEL_DIR = "widget";

// The panel first: its bytes name its versioned file, which the loader is built to ask for.
const [panel] = (
  await build({
    ...common,
    entryPoints: [path.join(root, "widget/src/panel-entry.jsx")],
    outfile: path.join(outdir, "widget-panel.js"),
    plugins: [zodByMember, minifiedCss],
  })
).outputFiles;
const version = createHash("sha256").update(panel.contents).digest("hex").slice(0, 12);
const panelFile = `${PANEL_DIR}/panel-${version}.js`;
const [loader] = (
  await build({
    ...common,
    entryPoints: [path.join(root, "widget/src/loader.js")],
    outfile: path.join(outdir, "widget.js"),
    define: { ...common.define, __PANEL_FILE__: JSON.stringify(panelFile) },
  })
).outputFiles;

// Older versions of the panel go: a deploy ships only this build's. A file is written only when
// its bytes change, so a build with nothing new writes nothing: a worker serving build/public/
// meanwhile (a test, `npm start`) never reads a file half written.
mkdirSync(path.join(outdir, PANEL_DIR), { recursive: true });
for (const old of readdirSync(path.join(outdir, PANEL_DIR))) {
  if (`${PANEL_DIR}/${old}` !== panelFile) rmSync(path.join(outdir, PANEL_DIR, old), { force: true });
}
const write = (file, contents) => {
  const bytes = Buffer.from(contents);
  if (existsSync(file) && readFileSync(file).equals(bytes)) return;
  writeFileSync(file, bytes);
};
write(path.join(outdir, "widget.js"), loader.contents);
write(path.join(outdir, "widget-panel.js"), panel.contents);
write(path.join(outdir, panelFile), panel.contents);
write(
  path.join(outdir, "_headers"),
  `# Written by scripts/build-widget.mjs: how long browsers and CDNs keep the widget's files.
/widget.js
  Cache-Control: public, max-age=${LOADER_MAX_AGE_SECS}
/widget-panel.js
  Cache-Control: public, max-age=0, must-revalidate
/${PANEL_DIR}/*
  Cache-Control: public, max-age=${VERSIONED_MAX_AGE_SECS}, immutable
`,
);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const name of ["widget.js", panelFile]) {
  const bytes = readFileSync(path.join(outdir, name));
  console.error(`build-widget: build/public/${name} ${kb(bytes.length)}, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip`);
}
