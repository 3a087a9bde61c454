// `npm start -- --agent PATH/wrangler.toml --env test` (scripts/dev-agent.mjs; docs/your-agent.md,
// "Try it in the panel") on the AI SDK example agent, as a team runs it on their own: the
// adapter, bound to the agent's class in its worker under the name `--env test` gives it, no
// auth, its playground speaking of that agent; a stock `Chat` through a tool, a question and an
// approval. A class the agent's worker does not bind, or a file that is not there, is an error
// that names what was looked for, before anything starts.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { root, sessionId, until } from "./harness.mjs";
import { stockChat, textOf } from "./chat.mjs";
import { devServer } from "./dev.mjs";

const AGENT = ["--agent", "examples/ai-sdk-agent/wrangler.toml", "--env", "test"];

const toolParts = (message) => (message?.parts ?? []).filter((p) => p.type === "dynamic-tool" || p.type.startsWith("tool-"));

describe("npm start -- --agent, on the AI SDK example agent", () => {
  let base;
  let stop;
  before(async () => {
    ({ base, stop } = await devServer({ DEV_IP: "" }, "127.0.0.1", AGENT));
  });
  after(() => stop?.());

  test("the playground speaks of your agent, not of the demo's commands; the demo's routes are off", async () => {
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<h1>Your agent<\/h1>/);
    assert.doesNotMatch(html, /\/slow|demo agent/);
    assert.equal((await fetch(`${base}/demo/sessions/s/received`)).status, 404);
  });

  test("a stock Chat: a tool, a question answered, an approval granted, each turn whole", { timeout: 60_000 }, async () => {
    const session = sessionId("dev-agent");
    const { chat, errors } = await stockChat("ai", `${base}/api/sessions/${session}/chat`, { auto: "lastAssistantMessageIsCompleteWithToolCalls" });
    const last = () => chat.messages.at(-1);
    const ready = () => until(() => chat.status === "ready", "the client to be ready");
    const partOf = async (match, what) => {
      let found;
      await until(() => (found = toolParts(last()).find(match)) !== undefined, what);
      return found;
    };

    await chat.sendMessage({ text: "/weather" });
    await ready();
    const weather = toolParts(last()).find((p) => p.toolName === "getWeather");
    assert.equal(weather?.state, "output-available");
    assert.equal(textOf(last()), 'getWeather gave {"city":"Paris","forecast":"sunny","celsius":21}.');

    await chat.sendMessage({ text: "/ask Which region?" });
    const question = await partOf((p) => p.type === "tool-askUser" && p.state === "input-available", "the question");
    await chat.addToolOutput({ tool: "askUser", toolCallId: question.toolCallId, output: "eu" });
    await until(() => textOf(last()).includes("askUser gave eu."), "the rest of the turn");
    await ready();

    await chat.sendMessage({ text: "/deploy" });
    const approval = await partOf((p) => p.type === "tool-approveToolCall" && p.state === "input-available", "the approval");
    assert.equal(approval.input.toolName, "deploy");
    await chat.addToolOutput({ tool: "approveToolCall", toolCallId: approval.toolCallId, output: { approved: true } });
    await until(() => textOf(last()).includes('deploy gave {"deployed":"production"}.'), "the deploy");
    await ready();

    assert.deepEqual(errors, []);
    const history = await (await fetch(`${base}/api/sessions/${session}/messages`)).json();
    assert.deepEqual(history.map((m) => [m.id, m.role]), chat.messages.map((m) => [m.id, m.role]), "the history is the chat's");
  });
});

test("a class the agent's worker does not bind, or no such file: an error naming what was looked for, exit 2", async () => {
  const run = (args) => promisify(execFile)("node", ["scripts/dev-agent.mjs", ...args], { cwd: root }).then(
    () => ({ code: 0, stderr: "" }),
    (error) => ({ code: error.code, stderr: error.stderr }),
  );
  const wrongClass = await run([...AGENT, "--class", "SessionAgnet"]);
  assert.equal(wrongClass.code, 2);
  assert.match(wrongClass.stderr, /binds no Durable Object class SessionAgnet: it binds ChatAgent/);
  const noFile = await run(["--agent", "no/such/wrangler.toml"]);
  assert.equal(noFile.code, 2);
  assert.match(noFile.stderr, /no file .*no\/such\/wrangler\.toml/);
});
