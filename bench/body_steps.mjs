// Where the adapter's wasm memory goes for a chat body, step by step: bench/body-steps (the core's
// own functions, built for wasm32 with the worker's allocator behind a counter) given a body in a
// stock Chat's shape (bench/bodies.mjs's), chunk by chunk as the worker reads it, then each step
// of crates/adapter/src/handlers/chat.rs in turn: the body's stream finished, the request parsed,
// the body dropped, the last message's file decoded, its data: URL replaced by a URL. After each:
// the linear memory (which only grows: what the isolate keeps), the live bytes, and the most live
// at once during the step. No workerd: the worker's own figure is bench/bodies.mjs's wasm growth,
// which this repeats to within a MiB; this says which step makes it.
//
//   node bench/body_steps.mjs [--sizes 20,90] [--last 2.25,10] [--chunk-kib 64]
//
// Builds bench/body-steps into bench/.build/body-steps-target (cargo, offline; a minute the first
// time). Prints a table a body; writes nothing.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { benchDir } from "./lib/workers.mjs";
import { commandLine } from "./lib/args.mjs";

const cli = commandLine(process.argv.slice(2), ["--sizes", "--last", "--chunk-kib"]);
const MiB = 2 ** 20;
const SIZES = (cli.value("--sizes") ?? "20,90").split(",").map(Number);
const LASTS = (cli.value("--last") ?? "2.25,10").split(",").map(Number);
const CHUNK = cli.option("--chunk-kib", 64) * 1024;
/** An earlier photo: as bench/bodies.mjs's. */
const PHOTO_BYTES = 2.25 * MiB;

const target = path.join(benchDir, ".build/body-steps-target");
execFileSync("cargo", ["build", "--release", "--offline", "--target", "wasm32-unknown-unknown", "--quiet"], {
  cwd: path.join(benchDir, "body-steps"),
  env: { ...process.env, CARGO_TARGET_DIR: target },
  stdio: "inherit",
});
const wasm = readFileSync(path.join(target, "wasm32-unknown-unknown/release/body_steps.wasm"));

function png(bytes) {
  const out = randomBytes(bytes);
  Buffer.from("89504e470d0a1a0a", "hex").copy(out);
  return out;
}
const dataUrl = (bytes) => `data:image/png;base64,${bytes.toString("base64")}`;
const id = () => randomBytes(12).toString("base64").replace(/[+/]/g, "x").slice(0, 16);
const user = (url, text) => ({ parts: [{ type: "file", mediaType: "image/png", filename: "photo.png", url }, { type: "text", text }], id: id(), role: "user" });
const reply = () => ({ id: `msg_${randomBytes(8).toString("hex")}`, role: "assistant", parts: [{ type: "step-start" }, { type: "text", text: "w1", state: "done" }] });

/** A body of about `size` bytes (a stock Chat's shape), its last photo of `lastBytes`. */
function body(size, lastBytes) {
  const earlier = dataUrl(png(PHOTO_BYTES));
  const last = user(dataUrl(png(lastBytes)), "/slow 1 1 text");
  const messages = [];
  const pair = earlier.length + 500;
  while ((messages.length / 2 + 1) * pair + last.parts[0].url.length < size) messages.push(user(earlier, "photo"), reply());
  messages.push(last);
  return { bytes: Buffer.from(JSON.stringify({ id: id(), messages, trigger: "submit-message" })), earlier: messages.length / 2 - 0.5, lastUrl: last.parts[0].url.length };
}

const mib = (n) => (n / MiB).toFixed(2).padStart(6);
for (const size of SIZES) {
  for (const last of LASTS) {
    const { bytes, earlier, lastUrl } = body(size * MiB, last * MiB);
    const { instance } = await WebAssembly.instantiate(wasm);
    const x = instance.exports;
    const memory = () => x.memory.buffer.byteLength;
    const rows = [];
    const row = (step) => rows.push(`${step.padEnd(44)} ${mib(memory())} ${mib(x.live())} ${mib(x.peak())}`);
    const chunkAt = x.start();
    x.peak();
    row("start (a 64 KiB chunk buffer)");
    const lastAt = bytes.lastIndexOf('{"parts":[{"type":"file"');
    let marked = false;
    for (let at = 0; at < bytes.length; at += CHUNK) {
      if (!marked && at + CHUNK > lastAt) {
        row("pushed: every earlier message");
        marked = true;
      }
      const piece = bytes.subarray(at, at + CHUNK);
      new Uint8Array(x.memory.buffer, chunkAt, piece.length).set(piece);
      if (!x.push(piece.length)) throw new Error("the body was refused");
    }
    row("pushed: the last message and the body's end");
    x.finish();
    row("BodyStream::finish: the body kept");
    if (!x.parse()) throw new Error("the body did not parse");
    row("parse_chat_request_at");
    x.drop_body();
    row("drop(body)");
    if (!x.decode()) throw new Error("the file was refused");
    row("inline_file: the last file decoded");
    x.replace_url();
    row("its data: URL replaced by its URL");
    x.drop_all();
    row("the request's values dropped");
    console.log(
      `\nbody ${(bytes.length / MiB).toFixed(2)} MiB: ${earlier} earlier photos (data: URLs of 3 MiB), the last message's data: URL ${(lastUrl / MiB).toFixed(2)} MiB (a file of ${last} MiB), chunks of ${CHUNK / 1024} KiB`,
    );
    console.log(`${"after".padEnd(44)} memory   live   most live during the step (MiB)`);
    for (const r of rows) console.log(r);
  }
}
