// check-agent's verdicts: what each scenario found about each rule, folded into one result per
// rule, the run's exit status, and the report (text or JSON: docs/check-agent.md).
//
// A rule may be judged by several scenarios; the worst finding stands: `fail` (it broke the
// rule), then `skip` (a part of it could not be driven: a hole), then `pass`, then `n/a` (it does
// not bind this agent: a "MUST (with …)" rule whose feature the agent lacks or declared absent).
import { RULES } from "./rules.mjs";

const RANK = { fail: 3, skip: 2, pass: 1, "n/a": 0 };

/** Exit statuses (docs/check-agent.md). */
export const EXIT = { ok: 0, failed: 1, unreachable: 2, incomplete: 3 };

export class Verdicts {
  constructor() {
    this.found = new Map();
    this.notes = new Map();
  }

  /** Records a finding on rule `id`: `status` with `{ arrived, give }` (`give`: the option that
   * would let a skipped part be driven). The first finding of the worst status stands. */
  judge(id, status, detail = {}) {
    if (!RULES.some((r) => r.id === id)) throw new Error(`no rule ${id}`);
    const had = this.found.get(id);
    if (had && RANK[had.status] >= RANK[status]) return;
    this.found.set(id, { status, ...detail });
  }

  /** A remark on rule `id`, shown under it when it passes (what was and was not driven). */
  note(id, text) {
    if (!RULES.some((r) => r.id === id)) throw new Error(`no rule ${id}`);
    this.notes.set(id, [...(this.notes.get(id) ?? []), text]);
  }

  /** One result per rule, in the page's order. */
  results() {
    return RULES.map((rule) => {
      const found = this.found.get(rule.id) ?? { status: "skip", arrived: "not reached" };
      return { ...rule, ...found, notes: this.notes.get(rule.id) ?? [] };
    });
  }
}

/** The exit status of `results`: 1 if a MUST failed, else 3 if a MUST was not (wholly) checked,
 * else 0. */
export function exitCode(results) {
  const musts = results.filter((r) => r.level === "MUST");
  if (musts.some((r) => r.status === "fail")) return EXIT.failed;
  if (musts.some((r) => r.status === "skip")) return EXIT.incomplete;
  return EXIT.ok;
}

/** The report: one line per rule, and for a failure what was expected, what arrived, and what a
 * chat client sees; for a skip, why and what to give. */
export function report(results) {
  const lines = [];
  for (const r of results) {
    lines.push(`${r.level.padEnd(6)} ${r.status.padEnd(4)}  ${r.id.padEnd(18)} ${r.rule}`);
    if (r.status === "fail") {
      lines.push(`         expected: ${r.expected}`);
      lines.push(`         arrived:  ${r.arrived}`);
      lines.push(`         a chat client: ${r.impact}`);
    } else if (r.status === "skip" || r.status === "n/a") {
      if (r.arrived) lines.push(`         not checked: ${r.arrived}${r.give ? `: give ${r.give}` : ""}`);
    }
    for (const note of r.status === "pass" ? r.notes : []) lines.push(`         note: ${note}`);
  }
  const count = (status) => results.filter((r) => r.status === status).length;
  lines.push(`${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped, ${count("n/a")} not applicable`);
  const code = exitCode(results);
  if (code === EXIT.incomplete) {
    const holes = results.filter((r) => r.level === "MUST" && r.status === "skip");
    lines.push(`incomplete: ${holes.length} MUST rule(s) not checked (${holes.map((r) => r.id).join(", ")}): not green`);
  }
  return lines.join("\n");
}

/** The report as JSON: the exit status, the counts, and one object per rule. */
export function reportJson(results, extra = {}) {
  const count = (status) => results.filter((r) => r.status === status).length;
  return JSON.stringify({
    ...extra,
    exitCode: exitCode(results),
    summary: { passed: count("pass"), failed: count("fail"), skipped: count("skip"), notApplicable: count("n/a") },
    rules: results.map((r) => ({
      id: r.id,
      level: r.level,
      result: r.status,
      rule: r.rule,
      expected: r.expected,
      ...(r.status === "fail" ? { arrived: r.arrived, impact: r.impact } : {}),
      ...(r.status === "skip" || r.status === "n/a" ? { why: r.arrived, ...(r.give ? { give: r.give } : {}) } : {}),
      ...(r.notes?.length ? { notes: r.notes } : {}),
    })),
  }, null, 2);
}
