// The chat panel: a header (title, trace mode, close) over the conversation, which starts once
// the session's history is loaded, so a reload shows the past turns and resumes the one in flight.
import { useEffect, useRef, useState } from "preact/hooks";
import { loadHistory, useReportedError } from "./api.js";
import { capped, modesUpTo, storeTraceMode, storedTraceMode } from "./trace.js";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { Conversation } from "./Conversation.jsx";

/**
 * [mode, setMode]: with `switchable`, the visitor's remembered mode, else `fallback` (the site's
 * `trace`); without, always `fallback`. Either at most `max` (the worker's TRACE_MAX, once the
 * history said it): the panel never shows, nor asks for, more than the worker sends.
 */
function useTraceMode(fallback, switchable, max) {
  const [mode, setMode] = useState(() => (switchable && storedTraceMode()) || fallback);
  const choose = (next) => {
    storeTraceMode(next);
    setMode(next);
  };
  return [capped(mode, max), choose];
}

/**
 * Waits before the panel asks again for a history the worker said to ask for later
 * (`Retry-After`, as a failing agent's `503 agent_not_ready` says), by attempt: never sooner than
 * the worker said, and never more often than every 30 s after a few.
 */
const HISTORY_RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/**
 * The session's history, shown in the trace mode the panel opened with (a change of mode
 * applies to the turns after it, as it does to a stream), and the worker's TRACE_MAX. A history
 * the worker refused for now (its answer says `Retry-After`) is asked for again by itself, later
 * and later; the error shows meanwhile, never an empty conversation.
 */
function useHistory(config, trace) {
  const traceAtLoad = useRef(trace);
  const [state, setState] = useState({ loading: true });
  const [attempt, setAttempt] = useState(0);
  const waited = useRef(0);
  useEffect(() => {
    let current = true;
    let timer;
    if (attempt === 0 || state.error === undefined) setState({ loading: true });
    loadHistory(config, traceAtLoad.current).then(
      (loaded) => {
        waited.current = 0;
        if (current) setState(loaded);
      },
      (error) => {
        if (!current) return;
        setState({ error });
        if (error.retryAfterMs === undefined) return;
        const backoff = HISTORY_RETRY_MS[Math.min(waited.current, HISTORY_RETRY_MS.length - 1)];
        waited.current += 1;
        timer = setTimeout(() => setAttempt((n) => n + 1), Math.max(error.retryAfterMs, backoff));
      },
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [config, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}

export function Panel({ config, onClose }) {
  const { messages: t } = useStrings();
  const [traceMax, setTraceMax] = useState(null);
  const [trace, setTrace] = useTraceMode(config.trace, config.traceSwitch, traceMax);
  const history = useHistory(config, trace);
  useEffect(() => {
    if (history.traceMax) setTraceMax(history.traceMax);
  }, [history.traceMax]);
  const historyError = useReportedError(config, history.error, t);
  return (
    <section class="panel" aria-label={t.title}>
      <header>
        <h2>{t.title}</h2>
        {/* Once the history has said the worker's cap: no mode above it is ever offered. */}
        {config.traceSwitch && history.messages && (
          <select aria-label={t.trace} value={trace} onChange={(event) => setTrace(event.currentTarget.value)}>
            {modesUpTo(traceMax).map(([mode, label]) => (
              <option key={mode} value={mode}>
                {t[label]}
              </option>
            ))}
          </select>
        )}
        {onClose && (
          <button type="button" class="close" aria-label={t.closeChat} onClick={onClose}>
            ×
          </button>
        )}
      </header>
      {history.messages && <Conversation config={config} history={history.messages} older={history.older} trace={trace} />}
      {history.loading && <p class="loading">{t.loading}</p>}
      {historyError && (
        <div class="error" role="alert">
          <span>{format(t.loadFailed, { error: historyError })}</span>
          <button type="button" onClick={history.retry}>
            {t.retry}
          </button>
        </div>
      )}
    </section>
  );
}
