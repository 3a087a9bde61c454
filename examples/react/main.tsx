// The page's entry: the conversations and the chat of the session that `?session=` names, in #root.
import { createRoot } from 'react-dom/client';
import { App } from './chat';

const session = new URLSearchParams(location.search).get('session') ?? 'demo';
createRoot(document.getElementById('root')!).render(<App sessionId={session} />);
