// Stands in for `zod/v3` in the panel's bundle (scripts/build-widget.mjs). The AI SDK's
// provider-utils imports one thing from it, the enum ZodFirstPartyTypeKind, to turn zod 3
// schemas into JSON Schema: tool definitions a server makes, never a chat client. Every member
// of that enum is its own name ("ZodString" → "ZodString"), which this proxy gives for any name,
// so the 60 KB of zod 3 it would pull in stay out (13 KB gzip).
export const ZodFirstPartyTypeKind = new Proxy({}, { get: (_, name) => name });
