// Where the app finds the worker, whose conversations it lists and how much of the agent's work it
// is sent: here the demo agent that `npm start` serves at the repository's root.
import { Platform } from 'react-native';
import type { TokenSource } from './auth';
import type { TraceMode } from './session';

// `npm start` listens on 127.0.0.1:8787 of the computer that runs it. The iOS simulator shares
// that address; the Android emulator reaches the computer at 10.0.2.2; a phone needs the
// computer's address on the network, set as EXPO_PUBLIC_WORKER_URL (docs/mobile.md).
const computer = Platform.OS === 'android' ? '10.0.2.2' : '127.0.0.1';
export const WORKER_URL = process.env.EXPO_PUBLIC_WORKER_URL ?? `http://${computer}:8787`;

/** A session's routes: `${sessionUrl(id)}/chat`, `/chat/stop`, `/messages`, `/events`, `/files`. */
export const sessionUrl = (sessionId: string) => `${WORKER_URL}/api/sessions/${encodeURIComponent(sessionId)}`;

/** Whose conversations the list screen shows (GET /api/sessions): without sign-in (the demo), the
 * list this key names, sent as X-Conversations-Key (every device running the demo shares this one;
 * an app keeps a random key per install); with a token, its `sub` names the list on every device. */
export const LIST_KEY: string | null = 'expo-demo';

/** The text, the agent's questions and the ending; no tool, reasoning or status chunk. */
export const TRACE: TraceMode = 'minimal';

/** No token for the demo agent (AUTH_MODE none); a deployed worker: `backendTokenSource(…)`. */
export const TOKEN_SOURCE: TokenSource | null = null;
