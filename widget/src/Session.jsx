// One session in the panel: its history, loaded before its conversation starts, so a reload (or
// a switch from the Conversations view) shows the past turns and resumes the one in flight; a
// history the worker refused for now is asked for again by itself. Mounted anew for each session
// the panel shows (Panel.jsx keys it by the session); covered, not unmounted, while the
// Conversations view is open (inert: out of reach of Tab and screen readers, its place and
// scroll kept), so a turn under way goes on streaming.
import { useEffect, useRef, useState } from "preact/hooks";
import { loadHistory, useReportedError } from "./api.js";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { Conversation } from "./Conversation.jsx";

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

/**
 * `config`: the panel's, its `session` the one shown; `onLoaded(traceMax)` hears each history
 * loaded, with the worker's TRACE_MAX (or null); `covered` while the Conversations view shows;
 * `onNew` and `onList`, the ways on from a deleted session (DeletedNotice.jsx).
 */
export function Session({ config, trace, onLoaded, covered, onNew, onList }) {
  const { messages: t } = useStrings();
  const history = useHistory(config, trace);
  useEffect(() => {
    if (history.messages) onLoaded(history.traceMax);
  }, [history.messages]);
  const historyError = useReportedError(config, history.error, t);
  return (
    <div class="session" inert={covered}>
      {history.messages && (
        <Conversation config={config} history={history.messages} older={history.older} trace={trace} onNew={onNew} onList={onList} />
      )}
      {history.loading && <p class="loading">{t.loading}</p>}
      {historyError && (
        <div class="error" role="alert">
          <span>{format(t.loadFailed, { error: historyError })}</span>
          <button type="button" onClick={history.retry}>
            {t.retry}
          </button>
        </div>
      )}
    </div>
  );
}
