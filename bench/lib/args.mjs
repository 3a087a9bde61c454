// The command line of the scripts that run other builds of this worker beside the current one
// (compare.mjs, streams.mjs, instructions.mjs): build directories as plain arguments, numeric `--name value`
// options, and each build named c1, c2, … as a candidate.
import path from "node:path";

/**
 * Parses `argv` (after the script's name). `valueFlags`: the options that take a value, so that
 * their values are not taken for build directories. Returns { candidates: { c1: <dir>/index.js,
 * … }, kind(name): the reader kind of a worker's stream, option(name, fallback): its number or
 * the fallback, flag(name): whether it was given }.
 */
export function candidateArgs(argv, valueFlags) {
  const dirs = argv.filter((a, i) => !a.startsWith("--") && !(i > 0 && valueFlags.includes(argv[i - 1])));
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  const candidates = Object.fromEntries(dirs.map((d, i) => [`c${i + 1}`, path.resolve(d, "index.js")]));
  return {
    candidates,
    // How a worker's stream is read (bench/lib/client.mjs runTurn): a candidate is a Rust build.
    kind: (name) => (name in candidates ? "rust" : name),
    option,
    flag: (name) => argv.includes(name),
  };
}
