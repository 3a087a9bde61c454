// The one screen: the session's history, then a chat streamed from the worker with useChat; a
// turn that a trip to the background cut off is picked up again on return.
import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useEffect, useMemo, useState } from 'react';
import { Button, ScrollView, Text, TextInput, View } from 'react-native';
import { authHeaders } from './auth';
import { SESSION_ID, SESSION_URL, TOKEN_SOURCE, TRACE } from './config';
import { useOnForeground } from './foreground';
import { chatTransport, loadHistory, stopTurn } from './session';

const headers = authHeaders(TOKEN_SOURCE);

export default function App() {
  const [history, setHistory] = useState<UIMessage[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    loadHistory(SESSION_URL, headers, TRACE).then(setHistory, (error: Error) => setFailure(error.message));
  }, []);
  if (failure !== null) return <Text style={{ padding: 24 }}>{failure}</Text>;
  if (history === null) return <Text style={{ padding: 24 }}>Loading…</Text>;
  return <Chat history={history} />;
}

// #region chat
function Chat({ history }: { history: UIMessage[] }) {
  const transport = useMemo(() => chatTransport(SESSION_URL, headers, TRACE), []);
  const { messages, sendMessage, status, error, stop, setMessages, resumeStream } = useChat({
    id: SESSION_ID,
    messages: history, // the finished turns
    resume: true, // on mount: GET …/chat/:chatId/stream, a 204 or the turn in flight from its start
    transport,
  });

  // Back from the background: drop the request the phone may have cut, take the history (a turn
  // that ended meanwhile is in it), then resume (a turn still running streams from its start).
  useOnForeground(async () => {
    await stop();
    setMessages(await loadHistory(SESSION_URL, headers, TRACE));
    await resumeStream();
  });
  // #endregion chat

  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const send = () => {
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <View style={{ flex: 1, paddingTop: 56, paddingHorizontal: 16, paddingBottom: 24 }}>
      <ScrollView style={{ flex: 1 }}>
        {messages.map((message) => (
          <Text key={message.id} style={{ marginBottom: 12, fontWeight: message.role === 'user' ? '600' : '400' }}>
            {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
          </Text>
        ))}
        {error ? <Text style={{ color: 'crimson' }}>{error.message}</Text> : null}
      </ScrollView>
      <TextInput value={input} onChangeText={setInput} onSubmitEditing={send} placeholder="Ask the agent" />
      {busy ? (
        <Button title="Stop" onPress={() => void stopTurn(SESSION_URL, headers).then(stop)} />
      ) : (
        <Button title="Send" onPress={send} />
      )}
    </View>
  );
}
