// The chat panel: a header (title, trace mode, close) over the conversation, which starts once
// the session's history is loaded, so a reload shows the past turns and resumes the one in flight.
import { useEffect, useRef, useState } from "preact/hooks";
import { loadHistory, readableError } from "./api.js";
import { TRACE_MODES, storeTraceMode, storedTraceMode } from "./trace.js";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { Conversation } from "./Conversation.jsx";

/**
 * [mode, setMode]: with `switchable`, the visitor's remembered mode, else `fallback` (the site's
 * `trace`); without, always `fallback`.
 */
function useTraceMode(fallback, switchable) {
  const [mode, setMode] = useState(() => (switchable && storedTraceMode()) || fallback);
  const choose = (next) => {
    storeTraceMode(next);
    setMode(next);
  };
  return [mode, choose];
}

/**
 * The session's history, shown in the trace mode the panel opened with (a change of mode
 * applies to the turns after it, as it does to a stream).
 */
function useHistory(config, trace) {
  const traceAtLoad = useRef(trace);
  const [state, setState] = useState({ loading: true });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState({ loading: true });
    loadHistory(config, traceAtLoad.current).then(
      (messages) => current && setState({ messages }),
      (error) => current && setState({ error }),
    );
    return () => {
      current = false;
    };
  }, [config, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}

export function Panel({ config, onClose }) {
  const { messages: t } = useStrings();
  const [trace, setTrace] = useTraceMode(config.trace, config.traceSwitch);
  const history = useHistory(config, trace);
  useEffect(() => {
    if (history.error) config.emit?.("error", { message: readableError(history.error, t) });
  }, [history.error]);
  return (
    <section class="panel" aria-label={t.title}>
      <header>
        <h2>{t.title}</h2>
        {config.traceSwitch && (
          <select aria-label={t.trace} value={trace} onChange={(event) => setTrace(event.currentTarget.value)}>
            {TRACE_MODES.map(([mode, label]) => (
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
      {history.messages && <Conversation config={config} history={history.messages} trace={trace} />}
      {history.loading && <p class="loading">{t.loading}</p>}
      {history.error && (
        <div class="error" role="alert">
          <span>{format(t.loadFailed, { error: readableError(history.error, t) })}</span>
          <button type="button" onClick={history.retry}>
            {t.retry}
          </button>
        </div>
      )}
    </section>
  );
}
