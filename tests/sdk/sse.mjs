// SDK-independent checks of a raw SSE body: framing, ai@5.0.0 key whitelist, and the adapter's chunk sequencing rules.

/** Keys each chunk type may carry in ai@5.0.0's strict schema (`type` implied). */
const ALLOWED_KEYS = {
  start: ['messageId', 'messageMetadata'],
  'start-step': [],
  'finish-step': [],
  'text-start': ['id', 'providerMetadata'],
  'text-delta': ['id', 'delta', 'providerMetadata'],
  'text-end': ['id', 'providerMetadata'],
  'reasoning-start': ['id', 'providerMetadata'],
  'reasoning-delta': ['id', 'delta', 'providerMetadata'],
  'reasoning-end': ['id', 'providerMetadata'],
  'tool-input-start': ['toolCallId', 'toolName', 'providerExecuted', 'dynamic'],
  'tool-input-available': ['toolCallId', 'toolName', 'input', 'providerExecuted', 'providerMetadata', 'dynamic'],
  'tool-output-available': ['toolCallId', 'output', 'providerExecuted', 'dynamic', 'preliminary'],
  'tool-output-error': ['toolCallId', 'errorText', 'providerExecuted', 'dynamic'],
  // Tool approvals: ai 6 and later only (a stream asks for them only from such clients).
  'tool-approval-request': ['approvalId', 'toolCallId'],
  'tool-output-denied': ['toolCallId'],
  error: ['errorText'],
  abort: [],
  finish: ['messageMetadata'],
  'message-metadata': ['messageMetadata'],
  // Protocol 6: an agent's sources.
  'source-url': ['sourceId', 'url', 'title', 'providerMetadata'],
  'source-document': ['sourceId', 'mediaType', 'title', 'filename', 'providerMetadata'],
};
/** The messageMetadata keys the adapter writes; an agent's own (protocol 6) name none of them. */
const ADAPTER_METADATA = ['turnId', 'createdAt', 'durationMs', 'toolCalls', 'toolErrors', 'stopped', 'usage', 'model', 'error', 'ref', 'siblings'];
/** Data part names the adapter writes itself; an agent's (protocol 6) are any other token. */
const ADAPTER_DATA = new Set(['data-status', 'data-question', 'data-answer']);
const DATA_KEYS = ['id', 'data', 'transient'];
/** Keys whose value may legitimately be JSON null. */
const NULLABLE = new Set(['input', 'output', 'data']);
const LABEL_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
const PHASES = new Set(['thinking', 'tool_use', 'compacting']);
const ENDINGS = new Set(['error', 'finish', 'abort']);
/** The client-side tools a question becomes (crates/core/src/questions.rs): not run by the agent, answered by the user. */
const QUESTION_TOOLS = new Set(['askUser', 'approveToolCall']);

/** Splits the body into events; returns {chunks, comments, problems}. */
export function parseSse(body) {
  const problems = [];
  const chunks = [];
  let comments = 0;
  if (body.includes('\r')) problems.push('body contains a raw CR (only LF framing is expected)');
  if (!body.endsWith('data: [DONE]\n\n')) problems.push(`body does not end with "data: [DONE]\\n\\n": ...${JSON.stringify(body.slice(-60))}`);
  const events = body.split('\n\n');
  if (events.pop() !== '') problems.push('last event is not terminated by a blank line');
  events.forEach((event, i) => {
    const lines = event.split('\n');
    if (lines.every((l) => l.startsWith(':'))) {
      comments++;
      return;
    }
    if (lines.length !== 1 || !event.startsWith('data: ')) {
      problems.push(`event #${i} is not a single "data: " line: ${JSON.stringify(event.slice(0, 120))}`);
      return;
    }
    const payload = event.slice('data: '.length);
    if (payload === '[DONE]') {
      if (i !== events.length - 1) problems.push(`[DONE] at event #${i} is not the last event`);
      return;
    }
    let chunk;
    try {
      chunk = JSON.parse(payload);
    } catch (e) {
      problems.push(`event #${i} is not JSON: ${e.message}`);
      return;
    }
    if (chunk === null || typeof chunk !== 'object' || Array.isArray(chunk) || typeof chunk.type !== 'string') {
      problems.push(`event #${i} is not an object with a string type: ${payload.slice(0, 120)}`);
      return;
    }
    chunks.push(chunk);
  });
  return { chunks, comments, problems };
}

function checkKeys(chunk, at, problems) {
  const isData = chunk.type.startsWith('data-');
  const allowed = isData ? DATA_KEYS : ALLOWED_KEYS[chunk.type];
  if (!allowed) {
    problems.push(`${at}: chunk type "${chunk.type}" is not one the adapter may emit`);
    return;
  }
  for (const [k, v] of Object.entries(chunk)) {
    if (k === 'type') continue;
    if (!allowed.includes(k)) problems.push(`${at}: key "${k}" is unknown to ai@5.0.0 on ${chunk.type}`);
    if (v === null && !NULLABLE.has(k)) problems.push(`${at}: optional key "${k}" is null on ${chunk.type}`);
  }
}

function checkData(chunk, at, problems) {
  const keys = Object.keys(chunk.data ?? {});
  if (chunk.type === 'data-status') {
    if (chunk.transient !== true) problems.push(`${at}: data-status must be transient`);
    if (!PHASES.has(chunk.data?.phase)) problems.push(`${at}: data-status phase ${JSON.stringify(chunk.data?.phase)}`);
    if (keys.some((k) => k !== 'phase' && k !== 'label')) problems.push(`${at}: data-status data keys ${keys}`);
    if ('label' in (chunk.data ?? {}) && !LABEL_RE.test(chunk.data.label))
      problems.push(`${at}: data-status label ${JSON.stringify(chunk.data.label)} is not one short token`);
  } else if (chunk.type === 'data-question') {
    if ('transient' in chunk) problems.push(`${at}: data-question must not be transient`);
    if (chunk.id !== chunk.data?.questionId) problems.push(`${at}: data-question id != data.questionId`);
    if (typeof chunk.data?.text !== 'string') problems.push(`${at}: data-question without text`);
    if (keys.some((k) => !['questionId', 'text', 'options'].includes(k)))
      problems.push(`${at}: data-question data keys ${keys}`);
  } else if (ADAPTER_DATA.has(chunk.type) || !LABEL_RE.test(chunk.type.slice(5))) {
    problems.push(`${at}: unexpected data chunk ${chunk.type}`);
  } else if ('transient' in chunk && chunk.transient !== true) {
    problems.push(`${at}: transient given, and not true`);
  }
}

/** Returns the list of rule violations in a chunk sequence (empty = valid). */
export function checkSequence(chunks) {
  const problems = [];
  const ends = chunks.filter((c) => c.type === 'finish' || c.type === 'abort');
  if (ends.length !== 1) problems.push(`expected exactly one finish/abort, got ${ends.length}`);
  const last = chunks.at(-1);
  if (!last || (last.type !== 'finish' && last.type !== 'abort')) problems.push(`last chunk is ${last?.type}, not finish/abort`);

  const started = chunks[0]?.type === 'start';
  let phase = started ? 'before-step' : 'ending'; // before-step → step → ending
  let open = null; // {kind: 'text'|'reasoning', id}
  const partIds = new Set();
  const tools = new Map(); // toolCallId → {stage: 0 start,1 input,2 output, toolName}

  chunks.forEach((c, i) => {
    const at = `chunk #${i} (${c.type})`;
    checkKeys(c, at, problems);
    if (c.type === 'start') {
      if (i !== 0) problems.push(`${at}: start is not the first chunk`);
      if (typeof c.messageId !== 'string' || c.messageId === '') problems.push(`${at}: start without messageId`);
      return;
    }
    if (c.type === 'start-step') {
      if (phase !== 'before-step' || i !== 1) problems.push(`${at}: start-step must directly follow start, once`);
      phase = 'step';
      return;
    }
    if (c.type === 'finish-step') {
      if (phase !== 'step') problems.push(`${at}: finish-step outside an open step`);
      if (open) problems.push(`${at}: ${open.kind} part ${open.id} still open at finish-step`);
      for (const [id, t] of tools) if (t.stage < 2 && !t.waits) problems.push(`${at}: tool ${id} left without an output`);
      phase = 'ending';
      return;
    }
    if (c.type === 'message-metadata' && phase === 'step') {
      // An agent's own (protocol 6): none of the adapter's keys.
      const taken = Object.keys(c.messageMetadata ?? {}).filter((k) => ADAPTER_METADATA.includes(k));
      if (taken.length) problems.push(`${at}: an agent's metadata names the adapter's ${taken}`);
      return;
    }
    if (c.type === 'source-url' || c.type === 'source-document') {
      if (phase !== 'step') problems.push(`${at}: content outside start-step … finish-step`);
      if (open) problems.push(`${at}: ${open.kind} part ${open.id} still open before a source`);
      return;
    }
    if (c.type === 'message-metadata') {
      // A stopped turn's metadata, between its finish-step and its abort.
      if (phase !== 'ending' || chunks[i + 1]?.type !== 'abort') problems.push(`${at}: message-metadata other than just before abort`);
      if (c.messageMetadata?.stopped !== true) problems.push(`${at}: message-metadata without stopped`);
      return;
    }
    if (ENDINGS.has(c.type)) {
      if (phase !== 'ending') problems.push(`${at}: ending chunk before finish-step`);
      if (c.type === 'error') {
        if (typeof c.errorText !== 'string' || c.errorText === '') problems.push(`${at}: empty errorText`);
        if (chunks[i + 1]?.type !== 'finish') problems.push(`${at}: error is not followed by finish`);
      }
      if ((c.type === 'finish' || c.type === 'abort') && i !== chunks.length - 1) problems.push(`${at}: chunks after the ending`);
      const waiting = [...tools.values()].filter((t) => t.waits && t.stage < 2).length;
      if (c.type !== 'finish' && waiting > 0) problems.push(`${at}: a question waits, but the stream does not end with finish`);
      if (waiting > 1) problems.push(`${at}: ${waiting} questions wait at once`);
      return;
    }
    if (phase !== 'step') problems.push(`${at}: content outside start-step … finish-step`);

    const [kind, what] = c.type.startsWith('text-') ? ['text', c.type.slice(5)] : c.type.startsWith('reasoning-') ? ['reasoning', c.type.slice(10)] : [null, null];
    if (kind) {
      if (what === 'start') {
        if (open) problems.push(`${at}: ${open.kind} part ${open.id} still open`);
        if (partIds.has(c.id)) problems.push(`${at}: part id ${c.id} reused`);
        partIds.add(c.id);
        open = { kind, id: c.id };
      } else {
        if (!open || open.kind !== kind || open.id !== c.id) problems.push(`${at}: ${kind} part ${c.id} is not open`);
        if (what === 'delta' && typeof c.delta !== 'string') problems.push(`${at}: delta is not a string`);
        if (what === 'end') open = null;
      }
      return;
    }
    if (c.type === 'tool-approval-request') {
      const t = tools.get(c.toolCallId);
      if (!t || t.stage !== 1 || t.question) problems.push(`${at}: approval of ${c.toolCallId}, no agent tool with its input`);
      else t.waits = true;
      return;
    }
    if (c.type === 'tool-output-denied') {
      problems.push(`${at}: a denial belongs to the stream of an answer, not to a turn's first`);
      return;
    }
    if (c.type.startsWith('tool-')) {
      if (open) problems.push(`${at}: ${open.kind} part ${open.id} still open before a tool chunk`);
      const t = tools.get(c.toolCallId);
      const question = c.providerExecuted === false && c.dynamic === false;
      if (question && c.toolName !== undefined && !QUESTION_TOOLS.has(c.toolName)) problems.push(`${at}: client-side tool ${c.toolName} is no question`);
      if (!question && (c.providerExecuted !== true || c.dynamic !== true)) problems.push(`${at}: providerExecuted/dynamic must be true (false for a question's tool)`);
      if (t && t.question !== question) problems.push(`${at}: tool ${c.toolCallId} switched between agent and question`);
      const stage = { 'tool-input-start': 0, 'tool-input-available': 1 }[c.type] ?? 2;
      if (stage === 2 && !t) problems.push(`${at}: output for unknown tool ${c.toolCallId}`);
      if (t && stage <= t.stage) problems.push(`${at}: tool ${c.toolCallId} went back or repeated (stage ${t.stage} → ${stage})`);
      if (t?.toolName && c.toolName && t.toolName !== c.toolName) problems.push(`${at}: toolName changed`);
      tools.set(c.toolCallId, { stage, toolName: c.toolName ?? t?.toolName, question, waits: question && stage === 1 });
      return;
    }
    if (c.type.startsWith('data-')) return checkData(c, at, problems);
    problems.push(`${at}: unexpected chunk`);
  });
  return problems;
}
