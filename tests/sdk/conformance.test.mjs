// End-to-end: v2-to-sse output for every V2 scenario, checked raw and through four real AI SDK releases.
import { after, before, describe, it } from 'node:test';
import { AssertionError } from 'node:assert';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { readWithReadUIMessageStream, runChat } from './chat.mjs';
import { cliPath, runCli } from './cli.mjs';
import { fixtureScenarios, generatedScenarios, normalizeParts } from './scenarios.mjs';
import { SDK_SPECS, loadSdk } from './sdks.mjs';
import { checkSequence, parseSse } from './sse.mjs';

const scenarios = [...fixtureScenarios(), ...generatedScenarios()];
const sdks = await Promise.all(SDK_SPECS.map((spec) => loadSdk(spec).catch((loadError) => ({ label: spec.label, loadError }))));

/** deepStrictEqual with a bounded failure message (some values are 1 MiB strings). */
function same(actual, expected, what) {
  if (isDeepStrictEqual(actual, expected)) return;
  const show = (v) => {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 3000 ? `${s.slice(0, 3000)}… (${s.length} chars)` : s;
  };
  throw new AssertionError({ message: `${what}\n  actual:   ${show(actual)}\n  expected: ${show(expected)}` });
}

const dataParts = (parts) => parts.filter((p) => p.type.startsWith('data-')).map(({ type, id, data }) => ({ type, id, data }));

/** Data chunks as the message keeps them: a later one of the same type and id replaces the earlier, in its place. */
function replaced(chunks) {
  const kept = [];
  for (const chunk of chunks) {
    const at = chunk.id === undefined ? -1 : kept.findIndex((k) => k.type === chunk.type && k.id === chunk.id);
    if (at === -1) kept.push(chunk);
    else kept[at] = chunk;
  }
  return kept;
}

let bin;
before(() => {
  bin = cliPath();
});

it('loads every AI SDK release under test', () => {
  for (const sdk of sdks) assert.ok(!sdk.loadError, sdk.loadError?.message);
});

for (const sc of scenarios) {
  const { expect } = sc;
  describe(sc.name, () => {
    let out;
    before(() => {
      const r = runCli(bin, expect.args ?? [], sc.file ? { file: sc.file } : { stdin: sc.input });
      out = { ...r, body: new TextDecoder('utf-8', { fatal: false }).decode(r.stdout) };
      out.sse = parseSse(out.body);
    });
    after(() => {
      out = undefined;
    });

    it('CLI exits 0 with UTF-8 output, the same from FILE and stdin', () => {
      assert.equal(out.signal, null, `killed by ${out.signal}; stderr: ${out.stderr}`);
      assert.equal(out.status, 0, `exit ${out.status}; stderr: ${out.stderr}`);
      assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(out.stdout), 'stdout is not valid UTF-8');
      if (sc.file) {
        const viaStdin = runCli(bin, expect.args ?? [], { stdin: sc.input });
        assert.ok(viaStdin.stdout.equals(out.stdout), 'stdin and FILE input give different output');
      }
    });

    it('raw SSE: framing, ai@5.0.0 keys, one ending, sequencing', () => {
      same(out.sse.problems, [], 'SSE framing problems');
      const { chunks } = out.sse;
      same(checkSequence(chunks), [], 'chunk sequence violations');
      if (expect.chunks) same(chunks.map((c) => c.type), expect.chunks, 'chunk types');
      same(chunks.filter((c) => c.type === 'error').map((c) => c.errorText), expect.error === null ? [] : [expect.error], 'error chunks');
      const start = chunks.find((c) => c.type === 'start');
      same(start?.messageId ?? null, expect.message?.id ?? null, 'start.messageId');
      same(chunks.filter((c) => c.transient === true).map((c) => c.data), expect.transient, 'transient data payloads (data-status, an agent\'s own)');
    });

    for (const sdk of sdks) {
      it(`${sdk.label}${sdk.version ? ` (${sdk.version})` : ''}: Chat ends as expected, readUIMessageStream agrees`, async (t) => {
        if (sdk.loadError) return t.skip(sdk.loadError.message); // reported as a failure by the load test above
        if (expect.sdks && !expect.sdks.includes(sdk.label)) return t.skip(`for ${expect.sdks.join(', ')} only (${expect.sdksWhy})`);
        const r = await runChat(sdk.mod, out.stdout);
        const err = r.error && `${r.error.name}: ${r.error.message}`;
        assert.equal(r.requests.length, 1, 'exactly one POST');
        same(r.error?.message ?? null, expect.error, `chat.error (${err})`);
        same(r.status, expect.status, 'chat.status');
        const assistants = r.messages.filter((m) => m.role === 'assistant');
        if (expect.message === null) {
          same(assistants, [], 'no assistant message');
        } else {
          assert.equal(assistants.length, 1, 'one assistant message');
          same(assistants[0].id, expect.message.id, 'assistant message id');
          same(normalizeParts(assistants[0].parts), expect.message.parts, 'assistant message parts');
          // messageMetadata of start and finish, merged by the client into message.metadata.
          const meta = assistants[0].metadata ?? {};
          same(meta.turnId, expect.message.id, 'metadata.turnId');
          same(typeof meta.createdAt, 'number', 'metadata.createdAt');
          // (After an `error` chunk the client stops reading: the finish's metadata never lands.)
          // A stopped turn's come in the `message-metadata` before its `abort`, `stopped` set.
          const ending = out.sse.chunks.at(-1)?.type;
          if ((ending === 'finish' && expect.error === null) || ending === 'abort') {
            const tools = assistants[0].parts.filter((p) => p.type === 'dynamic-tool');
            same([meta.toolCalls, meta.toolErrors], [tools.length, tools.filter((p) => p.state === 'output-error').length], 'metadata tool counts');
            same(typeof meta.durationMs, 'number', 'metadata.durationMs');
            same(meta.stopped, ending === 'abort' ? true : undefined, 'metadata.stopped');
            // What the turn cost, when the agent's finalize said (protocol 3): absent otherwise.
            same(meta.usage ?? null, expect.usage ?? null, 'metadata.usage');
            same(meta.model ?? null, expect.model ?? null, 'metadata.model');
          }
          // An agent's own metadata (protocol 6), merged beside the adapter's keys.
          const own = Object.fromEntries(Object.entries(meta).filter(([k]) => !['turnId', 'createdAt', 'durationMs', 'toolCalls', 'toolErrors', 'stopped', 'usage', 'model'].includes(k)));
          same(own, expect.agentMetadata ?? {}, "the agent's own metadata");
          same(replaced(r.data.filter((d) => d.transient !== true)).map(({ type, id, data }) => ({ type, id, data })), dataParts(assistants[0].parts), 'onData for persistent data parts');
        }
        same(r.data.filter((d) => d.transient === true).map((d) => d.data), expect.transient, 'transient onData payloads');

        const x = await readWithReadUIMessageStream(sdk.mod, out.stdout, out.stdout.length > 65536 ? 65521 : 7);
        same(x.error?.message ?? null, expect.error, `readUIMessageStream error (${x.error?.name})`);
        if (expect.message === null) {
          same(x.message, undefined, 'readUIMessageStream yields no message');
        } else {
          same(x.message?.id, expect.message.id, 'readUIMessageStream message id');
          same(normalizeParts(x.message?.parts ?? []), expect.message.parts, 'readUIMessageStream message parts');
        }
      });
    }
  });
}
