//! Unit tests of the demo agent's scripts: every command's frames, and the messages they build.
use super::*;

/// The frames a script sends up to its first wait for an answer (or its end), as JSON.
fn frames_until_wait(script: &mut Script) -> Vec<Value> {
    let mut frames = Vec::new();
    while let Some(step) = script.pop() {
        match step.action {
            Action::Send(frame) => frames.push(serde_json::from_str(&frame).unwrap()),
            Action::AwaitAnswer => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    frames
}

#[test]
fn ask_waits_for_the_answer_then_says_it() {
    let mut script = for_prompt("/ask Deploy now?\nignored", "t", Some("r1"));
    assert_eq!(
        frames_until_wait(&mut script),
        [
            json!({"type": "message.create", "turnId": "t", "requestId": "r1"}),
            json!({"type": "agentStatus", "status": "thinking"}),
            json!({"type": "question", "questionId": "t-q1", "text": "Deploy now?",
                "options": ["yes", "no"]}),
        ]
    );
    assert_eq!(script.next_wait(), None, "nothing runs before the answer");
    script.answered(&json!({"ok": true}));
    let frames = frames_until_wait(&mut script);
    assert_eq!(
        frames[0],
        json!({"type": "agentStatus", "status": "streaming"})
    );
    let text: String = frames
        .iter()
        .filter(|f| f["type"] == "message.part.text-delta")
        .filter_map(|f| f["delta"].as_str())
        .collect();
    assert_eq!(text, r#"You answered: {"ok":true}."#);
    let ending = &frames[frames.len() - 3..];
    assert_eq!(ending[0]["reason"], "end_turn");
    assert_eq!(ending[0]["finalText"], text.as_str());
    assert_eq!(ending[2], json!({"type": "complete"}));
}

#[test]
fn deploy_runs_its_call_only_once_approved() {
    let text = |frames: &[Value]| -> String {
        frames
            .iter()
            .filter(|f| f["type"] == "message.part.text-delta")
            .filter_map(|f| f["delta"].as_str())
            .collect()
    };
    let calls = |frames: &[Value]| -> Vec<(String, Value)> {
        frames
            .iter()
            .filter(|f| f["type"] == "message.part.tool-update")
            .map(|f| (f["status"].as_str().unwrap().to_owned(), f["error"].clone()))
            .collect()
    };
    for (answer, statuses, reply) in [
        (
            json!({"approved": true}),
            vec!["running", "completed"],
            "Deployed to staging.",
        ),
        (
            json!("Approve"),
            vec!["running", "completed"],
            "Deployed to staging.",
        ),
        (
            json!({"approved": false}),
            vec!["error"],
            "I did not deploy to staging.",
        ),
        (json!("Deny"), vec!["error"], "I did not deploy to staging."),
    ] {
        let mut script = for_prompt("/deploy staging", "t", Some("r1"));
        let asked = frames_until_wait(&mut script);
        assert_eq!(calls(&asked), [("pending".to_owned(), Value::Null)]);
        assert_eq!(
            asked.last().unwrap(),
            &json!({"type": "question", "questionId": "t-q1", "text": "Deploy to staging?",
                "toolCallId": "t-deploy", "options": ["Approve", "Deny"]})
        );
        script.answered(&answer);
        let rest = frames_until_wait(&mut script);
        let got: Vec<String> = calls(&rest).into_iter().map(|(s, _)| s).collect();
        assert_eq!(got, statuses, "{answer}");
        assert_eq!(text(&rest), reply);
    }
    let mut script = for_prompt("/deploy", "t", None);
    frames_until_wait(&mut script);
    script.answered(&json!({"approved": false, "reason": "not on a Friday"}));
    let rest = frames_until_wait(&mut script);
    assert_eq!(calls(&rest)[0].1, json!("Denied: not on a Friday"));
    assert_eq!(text(&rest), "I did not deploy to production.");
}

#[test]
fn ask_has_a_default_question() {
    let mut script = for_prompt("/ask", "t", None);
    let frames = frames_until_wait(&mut script);
    assert_eq!(frames[2]["text"], DEFAULT_QUESTION);
    assert_eq!(frames[0], json!({"type": "message.create", "turnId": "t"}));
    assert_eq!(frames[2]["options"], json!(["yes", "no"]));
    // Without options, the user writes the answer.
    let mut free = for_prompt("/ask-free Your name?", "t", None);
    let frames = frames_until_wait(&mut free);
    assert_eq!(frames[2]["text"], "Your name?");
    assert_eq!(frames[2].get("options"), None);
    free.answered(&json!("Ada"));
    let reply: String = frames_until_wait(&mut free)
        .iter()
        .filter(|f| f["type"] == "message.part.text-delta")
        .filter_map(|f| f["delta"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(reply, "You answered: Ada.");
}

#[test]
fn replies_are_cut_into_a_bounded_number_of_words() {
    assert_eq!(word_deltas("a b  c", 10), ["a ", "b ", " ", "c"]);
    assert_eq!(word_deltas("a b c d", 2), ["a ", "b c d"]);
    assert_eq!(word_deltas("", 3), Vec::<&str>::new());
    let long = "x ".repeat(1000);
    let pieces = word_deltas(&long, MAX_REPLY_DELTAS);
    assert_eq!(pieces.len(), MAX_REPLY_DELTAS);
    assert_eq!(pieces.concat(), long);
}

#[test]
fn every_turn_grows_a_finished_message() {
    use crate::record::Record;
    use crate::session::{Message, Part};
    use crate::v2::{parse_frame, FinishReason, ToolStatus};
    for (prompt, reason) in [
        ("find the docs", FinishReason::EndTurn),
        ("/slow 5 1", FinishReason::EndTurn),
        ("/work 4 1", FinishReason::EndTurn),
        ("/error boom", FinishReason::Error),
        ("/ask Go?", FinishReason::EndTurn),
        ("/extras", FinishReason::EndTurn),
    ] {
        let mut script = for_prompt(prompt, "t", Some("r"));
        let mut message = Message::assistant("t");
        let mut finished = false;
        while let Some(step) = script.pop() {
            match step.action {
                Action::Send(frame) => {
                    let frame = parse_frame(&frame).expect("every frame parses");
                    finished |= message.apply(&frame);
                }
                Action::AwaitAnswer => {
                    assert!(message.answer("t-q1", json!("yes")));
                    script.answered(&json!("yes"));
                }
                other => panic!("{prompt}: unexpected {other:?}"),
            }
        }
        assert!(finished, "{prompt}");
        assert_eq!(message.finish_reason(), Some(reason), "{prompt}");
        let text = message.parts.iter().find_map(|p| match p {
            Part::Text { text, streaming } => Some((text.clone(), *streaming)),
            _ => None,
        });
        match prompt {
            "/slow 5 1" => assert_eq!(text, Some(("w1 w2 w3 w4 w5".into(), None))),
            "/work 4 1" => {
                assert_eq!(text, Some(("w1 w2".into(), None)));
                let call = message.parts.iter().find_map(|p| match p {
                    Part::ToolCall(call) => Some(call),
                    _ => None,
                });
                let call = call.expect("the work call");
                assert_eq!(
                    (call.tool_name.as_str(), call.status),
                    ("work", ToolStatus::Completed)
                );
                assert_eq!(call.args.as_ref().map(|a| a.get()), Some(r#"{"steps":4}"#));
                assert_eq!(
                    call.result.as_ref().map(|r| r.get()),
                    Some(r#"{"steps":4}"#)
                );
            }
            "/ask Go?" => assert_eq!(text, Some(("You answered: yes.".into(), None))),
            "/extras" => {
                let kinds: Vec<&str> = message
                    .parts
                    .iter()
                    .map(|p| match p {
                        Part::Text { .. } => "text",
                        Part::Data(_) => "data",
                        Part::Source(_) => "source",
                        Part::Metadata { .. } => "metadata",
                        Part::Finish { .. } => "finish",
                        _ => "other",
                    })
                    .collect();
                let expected = [
                    "text", "data", "metadata", "source", "source", "metadata", "text", "finish",
                ];
                assert_eq!(kinds, expected, "the transient part not kept, w1 replaced");
            }
            _ => {}
        }
    }
}

#[test]
fn drop_and_replay_end_by_closing() {
    let mut script = for_prompt("/drop", "t", None);
    let mut last = None;
    while let Some(step) = script.pop() {
        last = Some(step.action);
    }
    assert!(matches!(last, Some(Action::Drop { code: 1011, .. })));
    let mut script = for_prompt("/replay\n{\"type\":\"complete\"}\n", "t", None);
    assert_eq!(script.turn_id, None);
    assert!(matches!(
        script.pop().map(|s| s.action),
        Some(Action::Send(_))
    ));
    assert!(matches!(
        script.pop().map(|s| s.action),
        Some(Action::Close { code: 1000, .. })
    ));
}

#[test]
fn panic_leaves_a_call_running_and_a_text_part_open_then_panics_or_panics_at_once() {
    let mut script = for_prompt("/panic", "t", Some("r1"));
    let steps: Vec<(u64, Action)> = std::iter::from_fn(|| script.pop())
        .map(|step| (step.wait_ms, step.action))
        .collect();
    let sent = |frame: Value| Action::Send(frame.to_string());
    let delta =
        |text: &str| sent(json!({"type": "message.part.text-delta", "turnId": "t", "delta": text}));
    assert_eq!(
        steps,
        [
            (
                0,
                sent(json!({"type": "message.create", "turnId": "t", "requestId": "r1"}))
            ),
            (
                0,
                sent(json!({"type": "message.part.tool-update", "turnId": "t",
                    "callId": "t-work", "toolName": "work", "status": "running",
                    "args": {"steps": 1}}))
            ),
            (0, delta("w1")),
            (0, delta(" w2")),
            (0, delta(" w3")),
            (DEFAULT_INTERVAL_MS, Action::Panic),
        ]
    );
    let mut script = for_prompt("/panic now", "t", Some("r1"));
    let steps: Vec<(u64, Action)> = std::iter::from_fn(|| script.pop())
        .map(|step| (step.wait_ms, step.action))
        .collect();
    assert_eq!(
        steps,
        [(DEFAULT_INTERVAL_MS, Action::Panic)],
        "before the turn opens"
    );
}

#[test]
fn work_runs_a_tool_then_streams() {
    let steps: Vec<(u64, Value)> = {
        let mut script = for_prompt("/work 5 30", "t", Some("r1"));
        std::iter::from_fn(|| script.pop())
            .map(|step| match step.action {
                Action::Send(frame) => (step.wait_ms, serde_json::from_str(&frame).unwrap()),
                other => panic!("unexpected {other:?}"),
            })
            .collect()
    };
    let call = |status: &str, extra: Value| {
        let mut frame = json!({"type": "message.part.tool-update", "turnId": "t",
            "callId": "t-work", "toolName": "work", "status": status});
        frame
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        frame
    };
    let delta =
        |text: &str| json!({"type": "message.part.text-delta", "turnId": "t", "delta": text});
    assert_eq!(
        steps,
        [
            (
                0,
                json!({"type": "message.create", "turnId": "t", "requestId": "r1"})
            ),
            (
                0,
                json!({"type": "agentStatus", "status": "tool_calling", "detail": "work"})
            ),
            (0, call("running", json!({"args": {"steps": 5}}))),
            (90, call("completed", json!({"result": {"steps": 5}}))),
            (0, json!({"type": "agentStatus", "status": "streaming"})),
            (30, delta("w1")),
            (30, delta(" w2")),
            (
                0,
                json!({"type": "message.finalize", "turnId": "t", "reason": "end_turn",
                "finalText": "w1 w2", "model": "demo-script",
                "usage": {"inputTokens": 3, "outputTokens": 2}})
            ),
            (0, json!({"type": "agentStatus", "status": "idle"})),
            (0, json!({"type": "complete"})),
        ]
    );
}

#[test]
fn work_has_slows_defaults_and_caps() {
    let waits = |prompt: &str| -> (Vec<u64>, usize, Value) {
        let mut script = for_prompt(prompt, "t", None);
        let mut waits = Vec::new();
        let mut deltas = 0;
        let mut args = Value::Null;
        while let Some(step) = script.pop() {
            let Action::Send(frame) = step.action else {
                panic!("{prompt}: only frames");
            };
            let frame: Value = serde_json::from_str(&frame).unwrap();
            waits.push(step.wait_ms);
            deltas += usize::from(frame["type"] == "message.part.text-delta");
            if frame["status"] == "running" {
                args = frame["args"].clone();
            }
        }
        (waits, deltas, args)
    };
    // Defaults: 10 steps, 100 ms: the call runs 5 × 100 ms, then 5 deltas.
    let (w, deltas, args) = waits("/work");
    assert_eq!((w[3], deltas, args), (500, 5, json!({"steps": 10})));
    // An odd N rounds the running time up and the deltas down; at least one delta.
    let (w, deltas, _) = waits("/work 1 7");
    assert_eq!((w[3], deltas), (7, 1));
    let (w, deltas, args) = waits("/work 0 7");
    assert_eq!((w[3], deltas, args), (0, 1, json!({"steps": 0})));
    // The caps: MAX_DELTAS steps, MAX_INTERVAL_MS pauses, and one wait a timer can take.
    let (w, deltas, args) = waits("/work 999999999 999999999");
    assert_eq!(args, json!({"steps": MAX_DELTAS}));
    assert_eq!(deltas as u64, MAX_DELTAS / 2);
    assert_eq!(w[3], MAX_STEP_WAIT_MS);
    assert!(w[5..].iter().take(deltas).all(|&ms| ms == MAX_INTERVAL_MS));
}

#[test]
fn a_first_exchange_titles_its_session_just_before_its_finalize_and_a_command_never() {
    let types = |script: &mut Script| -> Vec<Value> { frames_until_wait(script) };
    let long =
        "plan a trip to Lisbon in May for a family of four with a day in Sintra and one by the sea";
    let mut script = for_prompt(long, "t", None);
    script.title_session();
    let frames = types(&mut script);
    let at = frames
        .iter()
        .position(|f| f["type"] == "title")
        .expect("a title");
    assert_eq!(
        frames[at + 1]["type"],
        "message.finalize",
        "just before the finalize"
    );
    let title = frames[at]["title"].as_str().unwrap();
    assert_eq!(
        title,
        "Docs search: plan a trip to Lisbon in May for a family of four with a day…"
    );
    assert!(title.chars().count() <= 80);
    assert_eq!(frames.iter().filter(|f| f["type"] == "title").count(), 1);
    for prompt in ["/slow 2 1", "/ask Go?", "/deploy staging"] {
        let mut script = for_prompt(prompt, "t", None);
        script.title_session();
        let frames = types(&mut script);
        assert!(frames.iter().all(|f| f["type"] != "title"), "{prompt}");
    }
    // Without the call (a later exchange), no title.
    let mut script = for_prompt("hello", "t", None);
    assert!(types(&mut script).iter().all(|f| f["type"] != "title"));
}
