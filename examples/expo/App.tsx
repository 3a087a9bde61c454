// Two screens: the user's conversations (conversations.tsx), and one of them: its history, then
// the chat streamed from the worker (chat.ts), a field to ask, photos to go with it (photos.ts),
// and a button to send or stop.
import type { FileUIPart, UIMessage } from 'ai';
import { useEffect, useState } from 'react';
import { Button, Image, ScrollView, Text, TextInput, View } from 'react-native';
import { authHeaders } from './auth';
import { useSessionChat } from './chat';
import { sessionUrl, TOKEN_SOURCE, TRACE } from './config';
import { ConversationsScreen } from './conversations';
import { pickPhotos, type PhotoSource } from './photos';
import { loadHistory, stopTurn } from './session';

const headers = authHeaders(TOKEN_SOURCE);

export default function App() {
  // The conversation open, or none: the list.
  const [open, setOpen] = useState<string | null>(null);
  if (open === null) return <ConversationsScreen headers={headers} open={setOpen} />;
  return <Conversation key={open} sessionId={open} back={() => setOpen(null)} />;
}

function Conversation({ sessionId, back }: { sessionId: string; back: () => void }) {
  const [history, setHistory] = useState<UIMessage[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    loadHistory(sessionUrl(sessionId), headers, TRACE).then(setHistory, (error: Error) => setFailure(error.message));
  }, [sessionId]);
  if (failure !== null) return <Text style={{ padding: 24 }}>{failure}</Text>;
  if (history === null) return <Text style={{ padding: 24 }}>Loading…</Text>;
  return <Chat sessionId={sessionId} history={history} back={back} />;
}

function Chat({ sessionId, history, back }: { sessionId: string; history: UIMessage[]; back: () => void }) {
  const url = sessionUrl(sessionId);
  const { messages, sendMessage, status, error, stop } = useSessionChat(sessionId, history, headers);
  const [input, setInput] = useState('');
  // The photos to go with the next message: already uploaded, each a FileUIPart with its URL.
  const [photos, setPhotos] = useState<FileUIPart[]>([]);
  const [uploading, setUploading] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const attach = async (source: PhotoSource) => {
    setUploading(true);
    setPhotoError(null);
    try {
      const uploaded = await pickPhotos(source, url, headers);
      setPhotos((before) => [...before, ...uploaded]);
    } catch (error) {
      setPhotoError(error instanceof Error ? error.message : String(error));
    } finally {
      setUploading(false);
    }
  };
  const busy = status === 'submitted' || status === 'streaming';
  const send = () => {
    if ((input.trim() === '' && photos.length === 0) || busy || uploading) return;
    // The photos go as their URLs: a few hundred bytes each, in this POST and every later one.
    void sendMessage(input.trim() === '' ? { files: photos } : { text: input, files: photos });
    setInput('');
    setPhotos([]);
  };
  // Stop for every client of the session: under detach, stop() alone only closes this request.
  const stopTurnEverywhere = () => void stopTurn(url, headers).then(stop);
  return (
    <View style={{ flex: 1, paddingTop: 56, paddingHorizontal: 16, paddingBottom: 24 }}>
      <View style={{ alignSelf: 'flex-start' }}>
        <Button title="Conversations" onPress={back} />
      </View>
      <ScrollView style={{ flex: 1 }}>
        {messages.map((message) => (
          <View key={message.id} style={{ marginBottom: 12 }}>
            {/* A message's photos load from their signed URLs (the history signs them again). */}
            {message.parts.map((part, i) => (part.type === 'file' && part.mediaType.startsWith('image/') ? <Photo key={i} part={part} /> : null))}
            <Text style={{ fontWeight: message.role === 'user' ? '600' : '400' }}>
              {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
            </Text>
          </View>
        ))}
        {error ? <Text style={{ color: 'crimson' }}>{error.message}</Text> : null}
      </ScrollView>
      <View style={{ flexDirection: 'row', flexWrap: 'wrap' }}>
        {photos.map((part) => (
          <Photo key={part.url} part={part} />
        ))}
      </View>
      {uploading ? <Text>Uploading…</Text> : null}
      {photoError ? <Text style={{ color: 'crimson' }}>{photoError}</Text> : null}
      <TextInput value={input} onChangeText={setInput} onSubmitEditing={send} placeholder="Ask the agent" />
      <View style={{ flexDirection: 'row', justifyContent: 'space-between' }}>
        <Button title="Photo" onPress={() => void attach('library')} disabled={uploading} />
        <Button title="Camera" onPress={() => void attach('camera')} disabled={uploading} />
        {busy ? <Button title="Stop" onPress={stopTurnEverywhere} /> : <Button title="Send" onPress={send} disabled={uploading} />}
      </View>
    </View>
  );
}

/** A photo of a message, or one attached to the next: from its URL, which needs no header. */
function Photo({ part }: { part: FileUIPart }) {
  return <Image source={{ uri: part.url }} accessibilityLabel={part.filename ?? 'photo'} style={{ width: 160, height: 120, marginBottom: 4, marginRight: 4 }} resizeMode="cover" />;
}
