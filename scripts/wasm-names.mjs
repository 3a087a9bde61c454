// Shortens the function names in a wasm file's `name` section, in place: each Rust symbol's hash
// (`::h` and 16 hex digits) and each crate disambiguator (`[` 16 hex digits `]`) is removed.
// worker-build keeps the section so that a trap's stack trace names its functions; the names stay
// readable without the hashes (Rust's own backtraces leave them out too), and the hashes, 16
// random hex digits for each of ~1,400 functions, were 14 KB of the gzipped wasm. Nothing else in
// the file changes. Usage: node scripts/wasm-names.mjs build/index_bg.wasm
//
// `--symbols FILE` (the production build): the section leaves the deployed wasm altogether, 20 KB
// of its gzipped size, and FILE keeps the wasm with its names. A trap's stack trace then shows
// `wasm-function[N]`, and FILE names N (`wasm-tools print`, or any wasm disassembler); a panic's
// message and source location are printed by the panic hook either way. The custom sections
// `producers` (the toolchain's versions) and `target_features` (what rustc compiled for) leave
// the deployed wasm too, for FILE alone: no runtime reads them (the WebAssembly spec's custom
// sections have no effect on a module's meaning), and they were 219 bytes of the gzipped file.
import { readFileSync, writeFileSync } from "node:fs";

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function readU32(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error("wasm-names: the file ends inside a number");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function u32(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

/** A length-prefixed byte string. */
const vec = (bytes) => Buffer.concat([u32(bytes.length), bytes]);

const HASHES = /::h[0-9a-f]{16}|\[[0-9a-f]{16}\]/g;

/** The function-names subsection (id 1) with every name shortened. */
function shortenFunctionNames(body) {
  let [count, at] = readU32(body, 0);
  const parts = [u32(count)];
  for (let i = 0; i < count; i++) {
    let index;
    let length;
    [index, at] = readU32(body, at);
    [length, at] = readU32(body, at);
    const name = body.subarray(at, at + length).toString("utf8").replace(HASHES, "");
    at += length;
    parts.push(u32(index), vec(Buffer.from(name, "utf8")));
  }
  return Buffer.concat(parts);
}

/** The `name` section's payload (after its name) with its function names shortened. */
function shortenNameSection(payload) {
  const parts = [];
  let at = 0;
  while (at < payload.length) {
    const id = payload[at++];
    let size;
    [size, at] = readU32(payload, at);
    const body = payload.subarray(at, at + size);
    at += size;
    parts.push(Buffer.from([id]), vec(id === 1 ? shortenFunctionNames(body) : body));
  }
  return Buffer.concat(parts);
}

const file = process.argv[2];
const symbolsAt = process.argv.indexOf("--symbols");
const symbols = symbolsAt > 0 ? process.argv[symbolsAt + 1] : undefined;
if (!file || (symbolsAt > 0 && !symbols)) {
  process.stderr.write("usage: node scripts/wasm-names.mjs FILE.wasm [--symbols NAMED.wasm]\n");
  process.exit(2);
}
const wasm = readFileSync(file);
if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error(`wasm-names: ${file} is not a wasm module`);

/** Custom sections that only describe how the module was built (see above). */
const BUILD_NOTES = new Set(["producers", "target_features"]);

/**
 * The module with its `name` section shortened, or, when `keepNames` is false, without it and
 * without the build notes ([`BUILD_NOTES`]).
 */
function rewrite(keepNames) {
  const out = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const start = at;
    const id = wasm[at++];
    let size;
    [size, at] = readU32(wasm, at);
    const end = at + size;
    if (id === 0) {
      let nameLength;
      let payloadAt;
      [nameLength, payloadAt] = readU32(wasm, at);
      const name = wasm.subarray(payloadAt, payloadAt + nameLength).toString("utf8");
      if (name === "name") {
        if (keepNames) {
          const payload = shortenNameSection(wasm.subarray(payloadAt + nameLength, end));
          out.push(Buffer.from([0]), vec(Buffer.concat([vec(Buffer.from(name)), payload])));
        }
        at = end;
        continue;
      }
      if (!keepNames && BUILD_NOTES.has(name)) {
        at = end;
        continue;
      }
    }
    out.push(wasm.subarray(start, end));
    at = end;
  }
  return Buffer.concat(out);
}

if (symbols) {
  // The same code with its names: the function indices of a stack trace agree.
  writeFileSync(symbols, rewrite(true));
}
const written = rewrite(!symbols);
writeFileSync(file, written);
process.stderr.write(
  `wasm-names: ${file}: ${wasm.length} -> ${written.length} bytes` + (symbols ? ` (names in ${symbols})\n` : "\n"),
);
