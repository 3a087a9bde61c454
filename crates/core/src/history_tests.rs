//! Tests of `history`.

use super::*;
use crate::session::parse_init;
use crate::trace::TraceMode;

fn history(messages: &str) -> Value {
    history_as(messages, QuestionParts::Data)
}

fn history_as(messages: &str, parts: QuestionParts) -> Value {
    let init = parse_init(&format!(r#"{{"type":"init","messages":{messages}}}"#)).unwrap();
    let view = QuestionView::new(parts, Trace::default());
    serde_json::from_str(&history_json(&init.messages, &Trace::default(), &view)).unwrap()
}

#[test]
fn the_history_is_shown_as_the_trace_mode_shows_a_stream() {
    let messages = r#"[{"id":"t1","role":"assistant","parts":[
            {"type":"reasoning","text":"hm"},
            {"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","args":{"path":"/a/long/path"},"result":"x"},
            {"type":"text","text":"Done."},
            {"type":"finish","reason":"end_turn"}]}]"#;
    let init = parse_init(&format!(r#"{{"type":"init","messages":{messages}}}"#)).unwrap();
    let shown = |mode, max_tool_json_chars| -> Value {
        let trace = Trace {
            mode,
            max_tool_json_chars,
        };
        let view = QuestionView::new(QuestionParts::Tools, trace);
        serde_json::from_str(&history_json(&init.messages, &trace, &view)).unwrap()
    };
    let minimal = shown(TraceMode::Minimal, 100);
    let types: Vec<&str> = minimal[0]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["step-start", "text"], "no reasoning, no tool");
    let normal = shown(TraceMode::Normal, 100);
    assert_eq!(normal[0]["parts"][2]["toolName"], "ls");
    assert_eq!(normal[0]["parts"][2]["state"], "output-available");
    assert_eq!(normal[0]["parts"][2]["input"], Value::Null, "no arguments");
    assert_eq!(normal[0]["parts"][2]["output"], Value::Null, "no result");
    assert_eq!(normal[0]["parts"][1]["text"], "hm", "reasoning kept");
    let full = shown(TraceMode::Full, 5);
    assert_eq!(
        full[0]["parts"][2]["input"],
        json!({"truncated": true, "preview": "{\"pat", "fullLength": 23})
    );
    assert_eq!(
        full[0]["parts"][2]["output"],
        json!("x"),
        "short JSON whole"
    );
    let full = shown(TraceMode::Full, 100);
    assert_eq!(
        full[0]["parts"][2]["input"],
        json!({"path": "/a/long/path"})
    );
}

/// A file's `size` (protocol 6, as the adapter gave it) stays out of the client's part: a
/// `FileUIPart` has no such field, and an AI SDK before 5.0.217 refuses one it does not know.
#[test]
fn a_conversation_maps_part_by_part() {
    let out = history(
        r#"[
          {"id":"u1","role":"user","parts":[{"type":"text","text":"look"},{"type":"file","mediaType":"image/png","url":"https://x.example/a.png","filename":"a.png","size":48213}]},
          {"id":"t1","role":"assistant","parts":[
            {"type":"reasoning","text":"hm"},
            {"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","args":{"p":"/"},"result":["a"]},
            {"type":"tool-call","callId":"c2","toolName":"cat","status":"completed","args":{},"result":{"success":false,"error":{"message":"no file"}}},
            {"type":"tool-call","callId":"c3","toolName":"rm","status":"error","error":"denied"},
            {"type":"question","questionId":"q1","text":"Go?","options":["yes","no"],"answer":"yes"},
            {"type":"text","text":"Done."},
            {"type":"error","message":"ignored"},
            {"type":"finish","reason":"end_turn"}]}
        ]"#,
    );
    let tool = |name: &str, id: &str, state: &str, input: Value, end: (&str, Value)| {
        let mut part = json!({"type": "dynamic-tool", "toolName": name, "toolCallId": id,
                "state": state, "input": input});
        part[end.0] = end.1;
        part
    };
    assert_eq!(
        out,
        json!([
            {"id": "u1", "role": "user", "parts": [
                {"type": "text", "text": "look", "state": "done"},
                {"type": "file", "mediaType": "image/png", "url": "https://x.example/a.png", "filename": "a.png"}]},
            {"id": "t1", "role": "assistant",
             "metadata": {"turnId": "t1", "toolCalls": 3, "toolErrors": 2},
             "parts": [
                {"type": "step-start"},
                {"type": "reasoning", "text": "hm", "state": "done"},
                tool("ls", "c1", "output-available", json!({"p": "/"}), ("output", json!(["a"]))),
                tool("cat", "c2", "output-error", json!({}), ("errorText", json!("no file"))),
                tool("rm", "c3", "output-error", json!({}), ("errorText", json!("denied"))),
                {"type": "data-question", "id": "q1",
                 "data": {"questionId": "q1", "text": "Go?", "options": ["yes", "no"], "answer": "yes"}},
                {"type": "text", "text": "Done.", "state": "done"}]}
        ])
    );
}

const ASKED: &str = r#"[{"id":"t1","role":"assistant","parts":[
        {"type":"tool-call","callId":"c2","toolName":"deploy","status":"error","args":{"target":"prod"},"error":"Denied"},
        {"type":"question","questionId":"q2","text":"Deploy?","toolCallId":"c2","options":["Approve","Deny"],"answer":{"approved":false,"reason":"Friday"}},
        {"type":"question","questionId":"q3","text":"Which?","answer":"eu"},
        {"type":"text","text":"Done."},
        {"type":"question","questionId":"q4","text":"More?"},
        {"type":"finish","reason":"canceled"}]}]"#;

#[test]
fn questions_are_the_tool_parts_the_stream_showed() {
    let out = history_as(ASKED, QuestionParts::Tools);
    let step = json!({"type": "step-start"});
    assert_eq!(
        out[0]["parts"],
        json!([
            step,
            {"type": "dynamic-tool", "toolName": "deploy", "toolCallId": "c2", "state": "output-error",
             "input": {"target": "prod"}, "errorText": "Denied"},
            {"type": "tool-approveToolCall", "toolCallId": "q2", "state": "output-available",
             "input": {"questionId": "q2", "text": "Deploy?", "toolCallId": "c2", "toolName": "deploy", "input": {"target": "prod"}},
             "output": {"approved": false, "reason": "Friday"}},
            step,
            {"type": "tool-askUser", "toolCallId": "q3", "state": "output-available",
             "input": {"questionId": "q3", "text": "Which?"}, "output": "eu"},
            step,
            {"type": "text", "text": "Done.", "state": "done"},
            // Unanswered when the turn was stopped: it ended as the turn's open tools did.
            {"type": "tool-askUser", "toolCallId": "q4", "state": "output-error",
             "input": {"questionId": "q4", "text": "More?"}, "errorText": "Canceled"}
        ])
    );
    assert_eq!(out[0]["metadata"]["toolErrors"], 1);
}

#[test]
fn an_approval_shows_on_the_calls_own_part() {
    let out = history_as(ASKED, QuestionParts::Approvals);
    assert_eq!(
        out[0]["parts"][1],
        json!({"type": "dynamic-tool", "toolName": "deploy", "toolCallId": "c2", "state": "output-denied",
                   "input": {"target": "prod"}, "approval": {"id": "q2", "approved": false, "reason": "Friday"}})
    );
    assert_eq!(out[0]["parts"][2]["type"], "tool-askUser");
    assert_eq!(out[0]["parts"][3], json!({"type": "step-start"}));
    assert_eq!(
        out[0]["metadata"]["toolErrors"], 0,
        "a denied call did not fail"
    );
    let granted = ASKED
        .replace(
            r#""status":"error","#,
            r#""status":"completed","result":{"ok":true},"#,
        )
        .replace(r#"{"approved":false,"reason":"Friday"}"#, r#""Approve""#);
    let out = history_as(&granted, QuestionParts::Approvals);
    assert_eq!(
        out[0]["parts"][1],
        json!({"type": "dynamic-tool", "toolName": "deploy", "toolCallId": "c2", "state": "output-available",
                   "input": {"target": "prod"}, "output": {"ok": true}, "approval": {"id": "q2", "approved": true}})
    );
}

#[test]
fn a_reply_keeps_how_long_it_worked_whether_it_was_stopped_and_what_it_cost() {
    let out = history(
        r#"[
          {"id":"t1","role":"assistant","createdAt":"2026-11-24T10:00:00.000Z","completedAt":"2026-11-24T10:00:12.500Z",
           "parts":[{"type":"text","text":"Done."},{"type":"finish","reason":"end_turn"}]},
          {"id":"t2","role":"assistant","createdAt":1795514500000,"completedAt":1795514503000,
           "parts":[{"type":"text","text":"Wor"},
                    {"type":"tool-call","callId":"c","toolName":"sleep","status":"running"},
                    {"type":"finish","reason":"canceled"}]},
          {"id":"t3","role":"assistant","completedAt":"2026-11-24T10:00:12.500Z",
           "parts":[{"type":"text","text":"No start time."},{"type":"finish","reason":"end_turn"}]},
          {"id":"t4","role":"assistant",
           "parts":[{"type":"text","text":"Cost."},
                    {"type":"finish","reason":"end_turn","usage":{"inputTokens":7,"outputTokens":2},"model":"m1"}]},
          {"id":"t5","role":"assistant",
           "parts":[{"type":"text","text":"Garbled."},
                    {"type":"finish","reason":"end_turn","usage":{"inputTokens":"7"},"model":""}]}
        ]"#,
    );
    assert_eq!(
        out[0]["metadata"],
        json!({"turnId": "t1", "createdAt": 1_795_514_400_000_u64, "durationMs": 12_500, "toolCalls": 0, "toolErrors": 0})
    );
    assert_eq!(
        out[1]["metadata"],
        json!({"turnId": "t2", "createdAt": 1_795_514_500_000_u64, "durationMs": 3_000, "toolCalls": 1, "toolErrors": 1, "stopped": true})
    );
    assert_eq!(
        out[2]["metadata"],
        json!({"turnId": "t3", "toolCalls": 0, "toolErrors": 0}),
        "no duration without both times"
    );
    assert_eq!(
        out[3]["metadata"],
        json!({"turnId": "t4", "toolCalls": 0, "toolErrors": 0,
                   "usage": {"inputTokens": 7, "outputTokens": 2}, "model": "m1"}),
        "what the turn cost, as its live finish gave it"
    );
    assert_eq!(
        out[4]["metadata"],
        json!({"turnId": "t5", "toolCalls": 0, "toolErrors": 0}),
        "a garbled usage or model is dropped, not the message"
    );
}

#[test]
fn the_turn_in_flight_and_empty_user_messages_are_left_out() {
    let out = history(
        r#"[
          {"id":"u0","role":"user","parts":[{"type":"step-start"}]},
          {"id":"a0","role":"assistant","parts":[{"type":"finish","reason":"canceled"}]},
          {"id":"s0","role":"system","parts":[{"type":"text","text":"sys"}]},
          {"id":"u1","role":"user","parts":[{"type":"text","text":"go"}]},
          {"id":"t1","role":"assistant","parts":[{"type":"text","text":"wor","streaming":true}]}
        ]"#,
    );
    assert_eq!(
        out,
        json!([
            {"id": "a0", "role": "assistant", "parts": [{"type": "step-start"}],
             "metadata": {"turnId": "a0", "toolCalls": 0, "toolErrors": 0, "stopped": true}},
            {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "go", "state": "done"}]}
        ]),
        "a finished reply with nothing in it is kept, as its client holds it"
    );
}

#[test]
fn a_failed_reply_is_kept_with_the_agents_words() {
    let out = history(
        r#"[
          {"id":"a1","role":"assistant","parts":[{"type":"error","message":"boom"},{"type":"finish","reason":"error"}]},
          {"id":"a2","role":"assistant","parts":[{"type":"error","message":{"message":"quota","code":"q"}},{"type":"finish","reason":"error"}]},
          {"id":"a3","role":"assistant","parts":[{"type":"text","text":"half"},{"type":"finish","reason":"error"}]}
        ]"#,
    );
    let errors: Vec<&Value> = (0..3).map(|i| &out[i]["metadata"]["error"]).collect();
    assert_eq!(
        errors,
        [&json!("boom"), &json!("quota"), &json!(AGENT_ERROR)]
    );
    assert_eq!(out[0]["parts"], json!([{"type": "step-start"}]));
    assert_eq!(out[2]["parts"][1]["text"], "half");
}

#[test]
fn open_tools_of_a_finished_turn_end_as_the_stream_ended_them() {
    for (reason, text) in [("canceled", "Canceled"), ("end_turn", "Interrupted")] {
        let out = history(&format!(
            r#"[{{"id":"t1","role":"assistant","parts":[
                {{"type":"tool-call","callId":"c","toolName":"sleep","status":"running","args":{{"s":9}}}},
                {{"type":"finish","reason":"{reason}"}}]}}]"#
        ));
        assert_eq!(out[0]["parts"][1]["state"], "output-error");
        assert_eq!(out[0]["parts"][1]["errorText"], text);
        assert_eq!(out[0]["parts"][1]["input"], json!({"s": 9}));
    }
}

#[test]
fn a_protocol_5_message_says_where_it_is_in_the_tree() {
    let shown = history(
        r#"[{"id":"u1","ref":"u_1","parent":null,"role":"user","parts":[{"type":"text","text":"hi"}],"siblings":["u_0","u_1"]},
        {"id":"a1","ref":"a1","parent":"u_1","role":"assistant","parts":[{"type":"text","text":"yo"},{"type":"finish","reason":"end_turn"}]},
        {"id":"u2","role":"user","parts":[{"type":"text","text":"old"}]}]"#,
    );
    assert_eq!(
        shown[0]["metadata"],
        json!({"ref": "u_1", "siblings": {"index": 1, "count": 2, "refs": ["u_0", "u_1"]}})
    );
    assert_eq!(shown[1]["metadata"]["ref"], "a1");
    assert_eq!(
        shown[1]["metadata"]["turnId"], "a1",
        "the stream's metadata kept"
    );
    assert!(shown[1]["metadata"].get("siblings").is_none(), "no picker");
    assert!(
        shown[2].get("metadata").is_none(),
        "an older agent's: as before"
    );
}

#[test]
fn data_parts_sources_and_metadata_are_listed_as_the_stream_showed_them() {
    let messages = r#"[{"id":"t1","role":"assistant","parts":[
            {"type":"text","text":"Hi"},
            {"type":"data","name":"weather","id":"w1","data":{"temp":null}},
            {"type":"metadata","metadata":{"app":{"lang":"en","n":1}}},
            {"type":"data","name":"note","data":"a"},
            {"type":"data","name":"weather","id":"w1","data":{"temp":18}},
            {"type":"data","name":"status","data":"reserved: left out"},
            {"type":"source","sourceId":"s1","url":"https://e.com/p","title":"P"},
            {"type":"source","sourceId":"s2","mediaType":"application/pdf","title":"C","filename":"c.pdf"},
            {"type":"metadata","metadata":{"app":{"tone":"brief","n":2}}},
            {"type":"metadata","metadata":{"usage":{"inputTokens":1}}},
            {"type":"finish","reason":"end_turn","model":"m1"}]}]"#;
    let shown = history(messages);
    assert_eq!(
        shown[0]["parts"],
        json!([
            {"type": "step-start"},
            {"type": "text", "text": "Hi", "state": "done"},
            {"type": "data-weather", "id": "w1", "data": {"temp": 18}},
            {"type": "data-note", "data": "a"},
            {"type": "source-url", "sourceId": "s1", "url": "https://e.com/p", "title": "P"},
            {"type": "source-document", "sourceId": "s2", "mediaType": "application/pdf", "title": "C", "filename": "c.pdf"},
        ])
    );
    assert_eq!(
        shown[0]["metadata"],
        json!({"app": {"lang": "en", "tone": "brief", "n": 2}, "turnId": "t1", "toolCalls": 0,
            "toolErrors": 0, "model": "m1"}),
        "the agent's metadata merged, a part naming the adapter's keys left out"
    );
}
