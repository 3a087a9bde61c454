// What the AI SDK needs from the JavaScript runtime and a React Native app may lack: structuredClone,
// TextEncoderStream and TextDecoderStream. index.ts imports this file before anything else.
// Expo SDK 56 installs all three itself on iOS and Android (expo's winter runtime); an app on an
// older SDK, or with that runtime turned off, gets these. Each is installed only when missing.
import structuredClone from '@ungap/structured-clone';
import { TextDecoderStream, TextEncoderStream } from '@stardazed/streams-text-encoding';

const polyfills: Record<string, unknown> = { structuredClone, TextEncoderStream, TextDecoderStream };
for (const [name, value] of Object.entries(polyfills)) {
  if (!(name in globalThis)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
}

export {};
