//! Tests of what the adapter lets through to an agent of protocol 4: the list rule (`kept`), then
//! the check, case by case (the issue's stale devices among them).

use super::*;
use crate::refusal::STALE_CONVERSATION;

fn strings(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|id| (*id).to_owned()).collect()
}

fn place(message_id: &str, branch: &[&str]) -> Place {
    Place {
        message_id: Some(message_id.to_owned()),
        branch: Some(serde_json::to_string(branch).unwrap()),
    }
}

const STORED: [&str; 4] = ["u1", "a1", "u2", "a2"];

#[test]
fn the_list_rule_replaces_a_known_id_else_follows_the_branch_else_appends() {
    assert_eq!(kept(&STORED, Some("u2"), Some(&strings(&["u1", "a1"]))), 2);
    assert_eq!(kept(&STORED, Some("u1"), Some(&[])), 0);
    assert_eq!(kept(&STORED, Some("new"), Some(&strings(&["u1", "a1"]))), 2);
    assert_eq!(kept(&STORED, Some("new"), Some(&strings(&STORED))), 4);
    let with_unknown = strings(&["u1", "a1", "u2", "a2", "refused"]);
    assert_eq!(kept(&STORED, Some("new"), Some(&with_unknown)), 4);
    assert_eq!(kept(&STORED, Some("new"), Some(&strings(&["x"]))), 4);
    assert_eq!(kept(&STORED, None, None), 4);
}

fn refused(result: Result<(), Refusal>) -> bool {
    matches!(result, Err(refusal) if refusal.kind == STALE_CONVERSATION)
}

#[test]
fn a_send_after_the_last_message_goes() {
    assert!(check(&STORED, &place("u3", &STORED), Intent::Send).is_ok());
    assert!(check(&[], &place("u1", &[]), Intent::Send).is_ok());
    // A client's own messages the agent never had, after the last one it has.
    let with_refused = ["u1", "a1", "u2", "a2", "refused"];
    assert!(check(&STORED, &place("u3", &with_refused), Intent::Send).is_ok());
    // A client with no ids at all: appended.
    assert!(check(&STORED, &Place::default(), Intent::Send).is_ok());
}

#[test]
fn a_stale_device_a_missed_reply_and_a_numbered_client_are_refused() {
    // Device A never saw u2: its send would delete u2 and a2.
    assert!(refused(check(
        &STORED,
        &place("u3", &["u1", "a1"]),
        Intent::Send
    )));
    // A client whose reply never came holds [u1]: its send would delete a1.
    assert!(refused(check(
        &["u1", "a1"],
        &place("u3", &["u1"]),
        Intent::Send
    )));
    // A reloaded client numbering from 1 again: its "1" would replace the whole conversation.
    let numbered = ["1", "a", "2", "b"];
    assert!(refused(check(&numbered, &place("1", &[]), Intent::Send)));
    // A fork looks the same: refused.
    assert!(refused(check(
        &STORED,
        &place("f1", &["u1", "a1"]),
        Intent::Send
    )));
}

#[test]
fn a_regenerate_of_the_last_reply_goes_only_when_nothing_follows_it() {
    let regenerate = Intent::Regenerate { named: false };
    assert!(check(&STORED, &place("u2", &["u1", "a1"]), regenerate).is_ok());
    // Device A, holding [u1, a1], regenerates while u2 and a2 are B's: refused.
    assert!(refused(check(&STORED, &place("u1", &[]), regenerate)));
    // A reply that never came: only the user message goes.
    assert!(check(&["u1", "a1", "u2"], &place("u2", &["u1", "a1"]), regenerate).is_ok());
    // A client that sends only its last message: the last exchange, whatever its branch says.
    assert!(check(&STORED, &place("u2", &[]), regenerate).is_ok());
    assert!(check(&STORED, &place("u2", &[]), Intent::Edit).is_ok());
    // … but not an earlier exchange, which it cannot show it shares.
    let six = ["u1", "a1", "u2", "a2", "u3", "a3"];
    assert!(refused(check(&six, &place("u2", &[]), regenerate)));
    assert!(refused(check(&six, &place("u2", &[]), Intent::Edit)));
}

#[test]
fn an_explicit_edit_or_regenerate_of_a_shared_message_goes() {
    let named = Intent::Regenerate { named: true };
    assert!(check(&STORED, &place("u1", &[]), named).is_ok());
    assert!(check(&STORED, &place("u2", &["u1", "a1"]), Intent::Edit).is_ok());
    assert!(check(&STORED, &place("u1", &[]), Intent::Edit).is_ok());
    // The message before the edited one is not the agent's: not the client's own message.
    let six = ["u1", "a1", "u2", "a2", "u3", "a3"];
    assert!(refused(check(&six, &place("u2", &["u1"]), Intent::Edit)));
    assert!(refused(check(&six, &place("u2", &["u1"]), named)));
    assert!(check(&six, &place("u2", &["u1", "a1"]), Intent::Edit).is_ok());
    // An edit of a message the agent does not have, after a1: a fork in effect.
    assert!(refused(check(
        &STORED,
        &place("zz", &["u1", "a1"]),
        Intent::Edit
    )));
}

#[test]
fn the_intent_is_read_from_the_body() {
    use crate::request::{parse_chat_request, Limits};
    let body = |extra: &str| {
        format!(
            r#"{{"messages":[{{"id":"u1","role":"user","parts":[{{"type":"text","text":"hi"}}]}}]{extra}}}"#
        )
    };
    let intent = |extra: &str| {
        Intent::of(&parse_chat_request(body(extra).as_bytes(), &Limits::default()).unwrap())
    };
    assert_eq!(intent(""), Intent::Send);
    assert_eq!(intent(r#","trigger":"submit-message""#), Intent::Send);
    assert_eq!(
        intent(r#","trigger":"regenerate-message""#),
        Intent::Regenerate { named: false }
    );
    assert_eq!(
        intent(r#","trigger":"regenerate-message","messageId":"a1""#),
        Intent::Regenerate { named: true }
    );
    assert_eq!(
        intent(r#","trigger":"submit-message","messageId":"u1""#),
        Intent::Edit
    );
}
