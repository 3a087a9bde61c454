// The list screen: the user's conversations, the newest activity first, a page at a time
// (clients/conversations.js, GET /api/sessions); a new one, open one, rename one and delete one
// (asked first). A deleted conversation is gone for good: its agent forgets it, its photos leave
// the bucket (docs/sessions.md, "Your conversations"). Live: what another device or a browser tab
// makes, renames or deletes shows as it happens (`follow`, GET /api/sessions?live=1, through
// expo/fetch, which streams), listed again each time the live list opens.
import { fetch as expoFetch } from 'expo/fetch';
import { useEffect, useState } from 'react';
import { Alert, Button, FlatList, Pressable, Text, TextInput, View } from 'react-native';
import { conversations, type Conversation, type ConversationEvent } from '../../clients/conversations.js';
import { LIST_KEY, WORKER_URL } from './config';
import type { RequestHeaders } from './session';

/** A new conversation's id: the worker takes 1 to 128 of `[A-Za-z0-9._:-]`. */
const newSessionId = () => `expo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

// #region list
export function ConversationsScreen({ headers, open }: { headers: RequestHeaders; open: (sessionId: string) => void }) {
  // The list's requests carry the chat's credentials, and the device's key without sign-in.
  const [list] = useState(() =>
    conversations({
      baseUrl: WORKER_URL,
      headers: async () => ({ ...(await headers()), ...(LIST_KEY ? { 'X-Conversations-Key': LIST_KEY } : {}) }),
      fetch: expoFetch as unknown as typeof globalThis.fetch,
    }),
  );
  const [sessions, setSessions] = useState<Conversation[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const failed = (error: unknown) => setFailure(error instanceof Error ? error.message : String(error));
  // The live list's changes that came while the first page was read: applied again over it.
  const [since] = useState<{ events: ConversationEvent[] | null }>({ events: null });
  const first = () => {
    const events: ConversationEvent[] = (since.events = []);
    return list.page({ limit: 20 }).then(({ sessions, next }) => {
      since.events = null;
      setSessions(events.reduce(placed, sessions));
      setNext(next);
      setFailure(null);
    }, failed);
  };
  const apply = (event: ConversationEvent) => {
    since.events?.push(event);
    setSessions((shown) => placed(shown, event));
  };
  useEffect(() => {
    const live = new AbortController();
    // Opened again a few seconds after it ends (the worker ended it, the app went to the
    // background, or the network dropped).
    const follow = (): unknown =>
      list
        .follow(apply, { signal: live.signal, onOpen: first })
        .catch(failed)
        .finally(() => live.signal.aborted || setTimeout(follow, 3000));
    follow();
    return () => live.abort();
  }, []);
  const more = () =>
    next &&
    list.page({ limit: 20, cursor: next }).then(({ sessions: page, next }) => {
      // A session a turn moved to the front meanwhile is listed once, where it is now.
      setSessions((shown) => [...shown, ...page.filter((s) => !shown.some((t) => t.id === s.id))]);
      setNext(next);
    }, failed);
  const remove = (session: Conversation) =>
    Alert.alert('Delete this conversation?', `"${session.title}" and its photos are deleted for good.`, [
      { text: 'Cancel', style: 'cancel' },
      {
        text: 'Delete',
        style: 'destructive',
        onPress: () => void list.remove(session.id).then(() => setSessions((shown) => shown.filter((s) => s.id !== session.id)), failed),
      },
    ]);
  const rename = () => {
    if (renaming === null || renaming.title.trim() === '') return;
    list.rename(renaming.id, renaming.title).then((renamed) => {
      setSessions((shown) => shown.map((s) => (s.id === renamed.id ? renamed : s)));
      setRenaming(null);
    }, failed);
  };
  return (
    <View style={{ flex: 1, paddingTop: 56, paddingHorizontal: 16, paddingBottom: 24 }}>
      <Button title="New conversation" onPress={() => open(newSessionId())} />
      {failure ? <Text style={{ color: 'crimson' }}>{failure}</Text> : null}
      <FlatList
        data={sessions}
        keyExtractor={(session) => session.id}
        onEndReached={() => void more()}
        onRefresh={() => void first()}
        refreshing={false}
        renderItem={({ item }) =>
          renaming?.id === item.id ? (
            <TextInput value={renaming.title} onChangeText={(title) => setRenaming({ id: item.id, title })} onSubmitEditing={rename} autoFocus />
          ) : (
            <Pressable
              onPress={() => open(item.id)}
              onLongPress={() => setRenaming({ id: item.id, title: item.title })}
              accessibilityRole="button"
              accessibilityHint="Opens the conversation; a long press renames it"
              style={{ flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 12 }}
            >
              <Text numberOfLines={1} style={{ flex: 1 }}>
                {item.title}
              </Text>
              <Button title="Delete" onPress={() => remove(item)} />
            </Pressable>
          )
        }
      />
    </View>
  );
}

/** `sessions` with a change of the live list: a session put in its place by `updatedAt`, or gone. */
function placed(sessions: Conversation[], event: ConversationEvent): Conversation[] {
  const id = event.type === 'deleted' ? event.id : event.session.id;
  const others = sessions.filter((session) => session.id !== id);
  return event.type === 'deleted' ? others : [event.session, ...others].sort((a, b) => b.updatedAt - a.updatedAt);
}
// #endregion list
