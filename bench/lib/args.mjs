// The command line of the bench scripts: plain arguments and `--name value` options; for the
// scripts that run other builds of this worker beside the current one (compare.mjs,
// streams.mjs, instructions.mjs), build directories as plain arguments, each build named c1,
// c2, … as a candidate.
import path from "node:path";

/**
 * Parses `argv` (after the script's name). `valueFlags`: the options that take a value, so that
 * their values are not taken for plain arguments. Returns { positional: the plain arguments,
 * option(name, fallback): its number or the fallback, value(name): its text or undefined,
 * flag(name): whether it was given }.
 */
export function commandLine(argv, valueFlags) {
  const value = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    positional: argv.filter((a, i) => !a.startsWith("--") && !(i > 0 && valueFlags.includes(argv[i - 1]))),
    option: (name, fallback) => (value(name) === undefined ? fallback : Number(value(name))),
    value,
    flag: (name) => argv.includes(name),
  };
}

/**
 * Parses `argv` as commandLine() does, its plain arguments being build directories. Returns
 * { candidates: { c1: <dir>/index.js, … }, kind(name): the reader kind of a worker's stream,
 * option, value, flag }.
 */
export function candidateArgs(argv, valueFlags) {
  const { positional, option, value, flag } = commandLine(argv, valueFlags);
  const candidates = Object.fromEntries(positional.map((d, i) => [`c${i + 1}`, path.resolve(d, "index.js")]));
  return {
    candidates,
    // How a worker's stream is read (bench/lib/client.mjs runTurn): a candidate is a Rust build.
    kind: (name) => (name in candidates ? "rust" : name),
    option,
    value,
    flag,
  };
}
