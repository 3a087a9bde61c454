//! Tests of `forget`: which frames answer a `forget`, and which are passed over.

use super::*;

#[test]
fn only_a_forgotten_naming_the_request_says_it_is_done() {
    assert_eq!(
        read_answer(r#"{"type":"forgotten","requestId":"f1"}"#, "f1"),
        Some(Answer::Forgotten)
    );
    // Another delete's notice: its own answer comes on its own socket; ours is still to come.
    assert_eq!(
        read_answer(r#"{"type":"forgotten","requestId":"f2"}"#, "f1"),
        None
    );
    // A notice that names no request answers none.
    assert_eq!(read_answer(r#"{"type":"forgotten"}"#, "f1"), None);
    assert_eq!(
        read_answer(r#"{"type":"forgotten","requestId":7}"#, "f1"),
        None
    );
}

#[test]
fn what_the_socket_says_before_the_answer_is_passed_over() {
    for frame in [
        r#"{"type":"init","protocol":7,"messages":[]}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"canceled"}"#,
        r#"{"type":"complete"}"#,
        r#"{"type":"agentStatus","status":"idle"}"#,
        r#"{"type":"history","requestId":"f1","messages":[]}"#,
        "not json",
    ] {
        assert_eq!(read_answer(frame, "f1"), None, "{frame}");
    }
}

#[test]
fn an_error_on_the_asking_socket_is_a_failure_with_its_text() {
    let answer = read_answer(
        r#"{"type":"error","code":"forget_failed","message":"disk full"}"#,
        "f1",
    );
    assert!(
        matches!(&answer, Some(Answer::Failed(why)) if why.contains("disk full")),
        "{answer:?}"
    );
    assert!(matches!(
        read_answer(r#"{"type":"error","code":5}"#, "f1"),
        Some(Answer::Failed(_))
    ));
}
