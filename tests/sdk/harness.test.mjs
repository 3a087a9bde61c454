// Self-test of the conformance harness: the raw-SSE checker and the ai@5.0.0 run must reject what they claim to.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { runChat } from './chat.mjs';
import { SDK_SPECS, loadSdk } from './sdks.mjs';
import { checkSequence, parseSse } from './sse.mjs';

const sse = (chunks, tail = 'data: [DONE]\n\n') => chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + tail;
const tool = (type, extra = {}) => ({ type, toolCallId: 'c1', providerExecuted: true, dynamic: true, ...extra });
const VALID = [
  { type: 'start', messageId: 't1' }, { type: 'start-step' },
  { type: 'data-status', data: { phase: 'tool_use', label: 'bash' }, transient: true },
  { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'x' }, { type: 'text-end', id: 'a' },
  tool('tool-input-start', { toolName: 'bash' }), tool('tool-input-available', { toolName: 'bash', input: {} }),
  tool('tool-output-available', { output: null }),
  { type: 'data-question', id: 'q', data: { questionId: 'q', text: '?' } },
  { type: 'finish-step' }, { type: 'error', errorText: 'e' }, { type: 'finish' },
];

it('accepts a valid body', () => {
  const { chunks, problems } = parseSse(sse(VALID));
  assert.deepEqual(problems, []);
  assert.deepEqual(checkSequence(chunks), []);
});

it('rejects bad framing', () => {
  assert.equal(parseSse(sse(VALID, '')).problems.length, 1, 'missing [DONE]');
  assert.ok(parseSse(sse(VALID).replace('"x"', '"\r"')).problems.length > 0, 'raw CR');
  assert.ok(parseSse('event: x\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n').problems.length > 0, 'event: line');
  assert.ok(parseSse(`data: [DONE]\n\n${sse([{ type: 'finish' }])}`).problems.length > 0, 'chunk after [DONE]');
});

const broken = {
  'unknown key': (c) => c.with(-1, { type: 'finish', finishReason: 'stop' }),
  'null optional': (c) => c.with(0, { type: 'start', messageId: null }),
  'two endings': (c) => [...c, { type: 'abort' }],
  'error last': (c) => c.slice(0, -1),
  'tool while text open': (c) => c.toSpliced(5, 1).toSpliced(8, 0, { type: 'text-end', id: 'a' }),
  'delta without start': (c) => c.toSpliced(3, 1),
  'tool left open': (c) => c.toSpliced(8, 1),
  'tool without dynamic': (c) => c.with(6, { type: 'tool-input-start', toolCallId: 'c1', toolName: 'bash', providerExecuted: true }),
  'persistent status': (c) => c.with(2, { type: 'data-status', data: { phase: 'thinking' } }),
  'free-text label': (c) => c.with(2, { type: 'data-status', data: { phase: 'tool_use', label: 'ls -la' }, transient: true }),
  'content before start-step': (c) => c.toSpliced(1, 1).toSpliced(3, 0, { type: 'start-step' }),
  'transient question': (c) => c.with(9, { ...c[9], transient: true }),
};
for (const [name, mutate] of Object.entries(broken)) {
  it(`rejects: ${name}`, () => assert.notDeepEqual(checkSequence(mutate(VALID)), []));
}

it('ai@5.0.0 really is strict (an extra key fails the Chat), latest ai@5 is not', async () => {
  const body = new TextEncoder().encode(sse([{ type: 'start', messageId: 't1' }, { type: 'finish', finishReason: 'stop' }]));
  const strict = await runChat((await loadSdk(SDK_SPECS[0])).mod, body);
  assert.equal(strict.status, 'error');
  assert.equal(strict.error.name, 'AI_TypeValidationError');
  const loose = await runChat((await loadSdk(SDK_SPECS[1])).mod, body);
  assert.equal(loose.status, 'ready');
});
