// The page's entry: the chat of the session that `?session=` names, in #root.
import { createRoot } from 'react-dom/client';
import { ChatPage } from './chat';

const session = new URLSearchParams(location.search).get('session') ?? 'demo';
createRoot(document.getElementById('root')!).render(<ChatPage sessionId={session} />);
