// The one screen: the session's history, then the chat streamed from the worker (chat.ts), a
// field to ask and a button to send or stop.
import type { UIMessage } from 'ai';
import { useEffect, useState } from 'react';
import { Button, ScrollView, Text, TextInput, View } from 'react-native';
import { authHeaders } from './auth';
import { useSessionChat } from './chat';
import { SESSION_URL, TOKEN_SOURCE, TRACE } from './config';
import { loadHistory, stopTurn } from './session';

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

function Chat({ history }: { history: UIMessage[] }) {
  const { messages, sendMessage, status, error, stop } = useSessionChat(history, headers);
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const send = () => {
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };
  // Stop for every client of the session: under detach, stop() alone only closes this request.
  const stopTurnEverywhere = () => void stopTurn(SESSION_URL, headers).then(stop);
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
      {busy ? <Button title="Stop" onPress={stopTurnEverywhere} /> : <Button title="Send" onPress={send} />}
    </View>
  );
}
