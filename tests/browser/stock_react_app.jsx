// A chat page as an AI SDK user writes it, with nothing of this project's: React, `useChat` of
// @ai-sdk/react, `DefaultChatTransport` asking for tool approvals (`X-Questions: approvals`), and
// the SDK's own helpers posting the answer by itself (docs/sessions.md, "Questions"). Bundled by
// tests/browser/stock_react.test.mjs; `?session=` names the session.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from "ai";

function Part({ part, addToolApprovalResponse }) {
  if (part.type === "text") return <p>{part.text}</p>;
  if (part.type !== "dynamic-tool") return null;
  const id = part.approval?.id;
  return (
    <div className="tool" data-state={part.state}>
      {part.toolName}: {part.state}
      {part.state === "approval-requested" && (
        <>
          <button onClick={() => addToolApprovalResponse({ id, approved: true })}>Approve</button>
          <button onClick={() => addToolApprovalResponse({ id, approved: false })}>Deny</button>
        </>
      )}
    </div>
  );
}

function Chat({ sessionId }) {
  const [input, setInput] = useState("");
  const { messages, sendMessage, status, addToolApprovalResponse } = useChat({
    transport: new DefaultChatTransport({
      api: `/api/sessions/${sessionId}/chat`,
      headers: { "X-Questions": "approvals" },
    }),
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
  });
  const submit = (event) => {
    event.preventDefault();
    sendMessage({ text: input });
    setInput("");
  };
  return (
    <main>
      <p id="status">{status}</p>
      {messages.map((message) => (
        <div key={message.id} className={`message ${message.role}`}>
          {message.parts.map((part, i) => (
            <Part key={i} part={part} addToolApprovalResponse={addToolApprovalResponse} />
          ))}
        </div>
      ))}
      <form onSubmit={submit}>
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

const session = new URLSearchParams(location.search).get("session");
createRoot(document.getElementById("root")).render(<Chat sessionId={session} />);
