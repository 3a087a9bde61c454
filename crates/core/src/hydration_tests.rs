//! Tests of what the agent said first: an `init` ends the wait when one is wanted, a turn event
//! always does (its frame kept), a malformed `init` and everything else are passed over; and the
//! stop's rule of when a turn may be in flight.

use super::*;

const TEXT_DELTA: &str = r#"{"type":"message.part.text-delta","turnId":"t7","delta":"hi"}"#;

fn init(text: &str) -> Hydration {
    match read_first_frame(text.to_owned(), true) {
        FirstFrame::Decided(hydration) => hydration,
        other => panic!("not decided: {other:?}"),
    }
}

#[test]
fn an_init_ends_the_wait_only_when_one_is_wanted() {
    let text = r#"{"type":"init","protocol":1,"messages":[]}"#;
    assert!(matches!(init(text), Hydration::Init(init) if init.protocol == 1));
    assert!(matches!(
        read_first_frame(text.to_owned(), false),
        FirstFrame::PassedOver
    ));
}

#[test]
fn a_turn_event_ends_the_wait_with_its_frame_kept() {
    for want_init in [true, false] {
        let FirstFrame::Decided(Hydration::TurnEvent { frame, turn_id }) =
            read_first_frame(TEXT_DELTA.to_owned(), want_init)
        else {
            panic!("a turn event did not end the wait");
        };
        assert_eq!((frame.as_str(), turn_id.as_str()), (TEXT_DELTA, "t7"));
    }
}

#[test]
fn a_malformed_init_and_other_frames_are_passed_over() {
    let malformed = read_first_frame(r#"{"type":"init","messages":7}"#.to_owned(), true);
    assert!(matches!(malformed, FirstFrame::MalformedInit(why) if !why.is_empty()));
    for text in [
        r#"{"type":"status","status":"busy"}"#,
        r#"{"type":"domain.event","name":"x"}"#,
        "not json",
        "",
    ] {
        assert!(
            matches!(
                read_first_frame(text.to_owned(), true),
                FirstFrame::PassedOver
            ),
            "{text}"
        );
    }
}

#[test]
fn only_an_init_that_lists_the_turn_in_flight_can_say_none_runs() {
    let finished =
        r#"{"id":"a1","role":"assistant","parts":[{"type":"finish","reason":"end_turn"}]}"#;
    let running =
        r#"{"id":"t9","role":"assistant","parts":[{"type":"text","text":"wor","streaming":true}]}"#;
    let with = |protocol: u64, message: &str| {
        init(&format!(
            r#"{{"type":"init","protocol":{protocol},"messages":[{message}]}}"#
        ))
    };
    // Protocol 1 lists the turn in flight whenever one runs: none listed, none runs.
    assert!(!with(1, finished).may_have_turn_in_flight());
    assert!(with(1, running).may_have_turn_in_flight());
    // Protocol 0 may leave it out: no turn listed does not say none runs.
    assert!(with(0, finished).may_have_turn_in_flight());
    assert!(with(0, running).may_have_turn_in_flight());
    let event = Hydration::TurnEvent {
        frame: TEXT_DELTA.into(),
        turn_id: "t7".into(),
    };
    assert!(event.may_have_turn_in_flight());
    for silence in [Silence::TimedOut, Silence::Closed, Silence::Malformed] {
        assert!(Hydration::Unknown(silence).may_have_turn_in_flight());
    }
}

#[test]
fn a_failing_agent_is_told_from_one_that_keeps_no_init() {
    // Silent past the wait: an agent that promised no `init` keeps none; one that promised it is
    // slow.
    assert!(Silence::TimedOut.failure(false).is_none());
    let slow = Silence::TimedOut
        .failure(true)
        .expect("a promised init that never came");
    // A closed socket or an unreadable `init` is a failure whatever the agent promised.
    for promised in [false, true] {
        for (silence, words) in [
            (Silence::Closed, "closed the connection"),
            (Silence::Malformed, "could not be read"),
        ] {
            let refusal = silence.failure(promised).expect("a failure");
            assert_eq!(refusal.kind.pair(), (503, "agent_not_ready"));
            assert!(refusal.message.contains(words), "{}", refusal.message);
            assert!(refusal.headers.contains(&("retry-after", "5".into())));
        }
    }
    assert_eq!(slow.kind.pair(), (503, "agent_not_ready"));
    assert!(slow.message.contains("in time"), "{}", slow.message);
    assert!(slow.headers.contains(&("retry-after", "5".into())));
}
