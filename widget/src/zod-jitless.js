// Imported first by the panel, before the AI SDK: zod's parsers run without compiling code.
// zod probes `new Function("")` to see whether it may (util.js, `allowsEval`), and a page whose
// CSP has no 'unsafe-eval' reports that probe as a violation (a `securitypolicyviolation` and a
// report to its `report-uri`) even though zod catches the error. Its `jitless` setting skips the
// probe; the AI SDK's stream schemas are small, and parsing them without the compiled fast path
// costs nothing a reader sees.
import { config } from "zod/v4";

config({ jitless: true });
