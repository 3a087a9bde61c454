// V2 scenarios for the conformance test: the committed fixtures plus a few generated in code (1 MiB delta, CRLF input).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './cli.mjs';

export const FIXTURE_DIR = resolve(REPO_ROOT, 'tests/fixtures/v2');

/** Every `<name>.jsonl` with its `<name>.expect.json`. */
export function fixtureScenarios() {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.jsonl'.length);
      const file = resolve(FIXTURE_DIR, f);
      const expect = JSON.parse(readFileSync(resolve(FIXTURE_DIR, `${name}.expect.json`), 'utf8'));
      return { name, file, input: readFileSync(file), expect };
    });
}

const frame = (o) => JSON.stringify(o);
const create = frame({ type: 'message.create', turnId: 'turn-1' });
const delta = (d) => frame({ type: 'message.part.text-delta', turnId: 'turn-1', delta: d });
const endTurn = frame({ type: 'message.finalize', turnId: 'turn-1', reason: 'end_turn' });
const textTurn = (text) => ({
  description: 'generated',
  args: [],
  status: 'ready',
  error: null,
  transient: [],
  message: { id: 'turn-1', parts: [{ type: 'step-start' }, { type: 'text', text, state: 'done' }] },
});

/** Scenarios too big or too byte-specific for a fixture file; fed to the CLI on stdin. */
export function generatedScenarios() {
  const unit = 'abc é 中文 👋🏽 "q" \\ \n data: [DONE]\n\n\r\u2028\u0000|';
  const huge = unit.repeat(Math.ceil((1 << 20) / Buffer.byteLength(unit)));
  const many = Array.from({ length: 5000 }, (_, i) => `w${i} `);
  const plain = fixtureScenarios().find((s) => s.name === '01-plain-text');
  const crlf = plain.input.toString('utf8').trimEnd().split('\n').join('\r\n');
  return [
    {
      name: 'gen-1mib-delta',
      input: Buffer.from([create, delta(huge), endTurn].join('\n') + '\n'),
      expect: { ...textTurn(huge), chunks: ['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'finish-step', 'finish'] },
    },
    { name: 'gen-5000-deltas', input: Buffer.from([create, ...many.map(delta), endTurn].join('\n')), expect: textTurn(many.join('')) },
    { name: 'gen-crlf-no-final-newline', input: Buffer.from(crlf), expect: plain.expect },
  ];
}

/** The parts of a UIMessage reduced to what the expectations state (ids and provider fields dropped). */
export function normalizeParts(parts) {
  const pick = (p, keys) => JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, p[k]]))));
  return parts.map((p) => {
    if (p.type === 'step-start') return { type: p.type };
    if (p.type === 'text' || p.type === 'reasoning') return pick(p, ['type', 'text', 'state']);
    if (p.type === 'dynamic-tool') return pick(p, ['type', 'toolCallId', 'toolName', 'state', 'input', 'output', 'errorText', 'approval']);
    if (p.type.startsWith('tool-')) return pick(p, ['type', 'toolCallId', 'state', 'input', 'output', 'errorText']);
    if (p.type.startsWith('data-')) return pick(p, ['type', 'id', 'data']);
    if (p.type === 'source-url') return pick(p, ['type', 'sourceId', 'url', 'title']);
    if (p.type === 'source-document') return pick(p, ['type', 'sourceId', 'mediaType', 'title', 'filename']);
    return p; // anything else is unexpected and will not match
  });
}
