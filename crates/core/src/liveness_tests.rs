use super::*;
use crate::v2::{PING, PONG};

const P: u64 = 30_000;
const STATUS: &[u8] = br#"{"type":"agentStatus","status":"streaming"}"#;

/// Checks every `step` from `from` to `to`, the socket answering each ping at once until
/// `answer_until`; the time of the first `Dead`.
fn run(live: &mut Liveness, from: u64, to: u64, step: u64, answer_until: u64) -> Option<u64> {
    let mut now = from;
    while now <= to {
        match live.check(now) {
            Check::Dead => return Some(now),
            Check::Ping if now <= answer_until => live.heard(PONG.as_bytes(), now),
            _ => {}
        }
        now += step;
    }
    None
}

#[test]
fn the_frames_are_exact_json() {
    assert_eq!(PING, r#"{"type":"ping"}"#);
    assert_eq!(PONG, r#"{"type":"pong"}"#);
    for frame in [PING, PONG] {
        let value: serde_json::Value = serde_json::from_str(frame).unwrap();
        assert!(value["type"].is_string());
    }
}

#[test]
fn the_default_bounds_a_dead_socket_at_sixty_seconds() {
    assert_eq!(2 * DEFAULT_PING_MS, 60_000);
    assert!((MIN_PING_MS..=MAX_PING_MS).contains(&DEFAULT_PING_MS));
}

#[test]
fn nothing_before_a_period_of_silence() {
    let mut live = Liveness::new(P, 1_000);
    assert!(!live.due(P));
    assert_eq!(live.check(P), Check::Quiet);
    assert!(live.due(P + 1_000));
    assert_eq!(live.check(P + 1_000), Check::Ping);
    assert_eq!(live.next_at(), 2 * P + 1_000);
}

#[test]
fn a_socket_that_streams_is_never_pinged() {
    let mut live = Liveness::new(P, 0);
    for now in (0..3_600_000).step_by(1_000) {
        live.heard(STATUS, now);
        assert_eq!(live.check(now), Check::Quiet);
    }
}

#[test]
fn a_socket_that_answers_is_pinged_every_period_and_never_dead() {
    let mut live = Liveness::new(P, 0);
    assert_eq!(run(&mut live, 0, 3_600_000, 1_000, u64::MAX), None);
}

#[test]
fn a_socket_that_never_answered_a_pong_is_pinged_once_and_never_dead() {
    let mut live = Liveness::new(P, 0);
    let mut pings = 0;
    for now in (0..=3_600_000).step_by(1_000) {
        match live.check(now) {
            Check::Ping => pings += 1,
            Check::Dead => panic!("an agent without R-pong is never dead"),
            Check::Quiet => {}
        }
    }
    assert_eq!(pings, 1);
}

#[test]
fn other_frames_keep_an_older_agent_from_being_given_up_while_they_come() {
    let mut live = Liveness::new(P, 0);
    assert_eq!(live.check(P), Check::Ping);
    live.heard(STATUS, P + 10);
    assert_eq!(live.check(2 * P + 10), Check::Ping);
    assert_eq!(
        live.check(3 * P + 10),
        Check::Quiet,
        "given up: nothing came back"
    );
    assert_eq!(live.check(4 * P + 10), Check::Quiet);
    live.heard(STATUS, 4 * P + 20);
    assert_eq!(live.check(5 * P + 20), Check::Quiet, "still given up");
}

#[test]
fn a_late_pong_starts_the_checks() {
    let mut live = Liveness::new(P, 0);
    assert_eq!(live.check(P), Check::Ping);
    assert_eq!(live.check(2 * P), Check::Quiet);
    live.heard(PONG.as_bytes(), 2 * P + 5);
    assert_eq!(live.check(3 * P + 5), Check::Ping);
    assert_eq!(live.check(4 * P + 5), Check::Dead);
}

#[test]
fn a_socket_that_stops_answering_is_dead_two_periods_after_its_last_frame() {
    // Checked every second (a feed's timer) and every 125 ms (a pump's ticks, in ms).
    for step in [1_000, 125] {
        for stop in (P..10 * P).step_by(7_001) {
            let mut live = Liveness::new(P, 0);
            let dead = run(&mut live, 0, 20 * P, step, stop).expect("found dead");
            // The last frame: the pong to the last ping answered, at or before `stop`.
            let last = (P..=stop).step_by(P as usize).last().unwrap_or(0);
            assert!(dead > stop, "dead at {dead}, still answering until {stop}");
            assert!(
                dead - last <= 2 * P + step,
                "found {} after the last frame",
                dead - last
            );
            assert!(
                dead - last >= 2 * P,
                "found {} after the last frame",
                dead - last
            );
        }
    }
}

#[test]
fn any_frame_counts_as_an_answer() {
    let mut live = Liveness::new(P, 0);
    assert_eq!(live.check(P), Check::Ping);
    live.heard(PONG.as_bytes(), P);
    assert_eq!(live.check(2 * P), Check::Ping);
    live.heard(STATUS, 2 * P + 1);
    assert_eq!(
        live.check(3 * P),
        Check::Quiet,
        "heard a period ago, not yet"
    );
    assert_eq!(live.check(3 * P + 1), Check::Ping);
    assert_eq!(live.check(4 * P + 1), Check::Dead);
}

#[test]
fn only_the_exact_bytes_are_a_pong() {
    assert!(Liveness::is_pong(PONG.as_bytes()));
    for other in [
        r#"{"type": "pong"}"#,
        r#"{"type":"pong","at":1}"#,
        PING,
        "pong",
    ] {
        assert!(!Liveness::is_pong(other.as_bytes()), "{other}");
        let mut live = Liveness::new(P, 0);
        assert_eq!(live.check(P), Check::Ping);
        live.heard(other.as_bytes(), P);
        assert_eq!(live.check(2 * P), Check::Ping, "heard, but not a pong");
        assert_eq!(
            live.check(3 * P),
            Check::Quiet,
            "never answered: not held to the rule"
        );
    }
}

#[test]
fn a_zero_period_is_one() {
    let mut live = Liveness::new(0, 0);
    assert_eq!(live.check(1), Check::Ping);
}
