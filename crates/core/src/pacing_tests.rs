//! Tests of the pump's decisions: silence counted to its phase's limit with keep-alives only
//! after a tick with nothing written, quiet ticks that JavaScript may absorb counted the same
//! way, a body nobody ever read stalling out, the bytes a slow client leaves queued, when
//! `abort` goes, and the log's outcome words.

use proptest::prelude::*;

use super::*;

/// The ticks from silence to the timeout, and what each did.
fn ticks_to_timeout(silence: &mut Silence, turn_started: bool) -> Vec<Tick> {
    let mut seen = Vec::new();
    loop {
        let tick = silence.tick(turn_started);
        seen.push(tick);
        if tick == Tick::Timeout || seen.len() > 1000 {
            return seen;
        }
    }
}

#[test]
fn silence_times_out_at_its_phase_limit_with_a_keep_alive_on_every_tick_before() {
    use Tick::{KeepAlive, Timeout};
    let mut silence = Silence::new(3, 5);
    assert_eq!(
        ticks_to_timeout(&mut silence, false),
        [KeepAlive, KeepAlive, Timeout]
    );
    let mut silence = Silence::new(3, 5);
    assert_eq!(
        ticks_to_timeout(&mut silence, true),
        [KeepAlive, KeepAlive, KeepAlive, KeepAlive, Timeout]
    );
}

#[test]
fn a_write_spares_the_next_keep_alive_and_a_frame_restarts_the_silence() {
    let mut silence = Silence::new(3, 3);
    silence.wrote();
    assert_eq!(
        silence.tick(true),
        Tick::Quiet,
        "written since the last tick"
    );
    assert_eq!(silence.tick(true), Tick::KeepAlive);
    silence.heard();
    assert_eq!(
        silence.tick(true),
        Tick::KeepAlive,
        "the count started over"
    );
    assert_eq!(silence.tick(true), Tick::KeepAlive);
    assert_eq!(silence.tick(true), Tick::Timeout);
}

#[test]
fn a_tick_is_quiet_only_for_a_reading_client_after_a_write_under_the_limit() {
    let mut silence = Silence::new(2, 4);
    silence.wrote();
    assert!(silence.next_tick_is_quiet(true, false, true));
    assert!(
        !silence.next_tick_is_quiet(false, false, true),
        "the stall rule needs the tick"
    );
    assert!(!silence.next_tick_is_quiet(true, true, true), "a turn done");
    let mut first = Silence::new(1, 4);
    first.wrote();
    assert!(
        first.next_tick_is_quiet(true, false, true),
        "under the idle limit of 4"
    );
    assert!(
        !first.next_tick_is_quiet(true, false, false),
        "the next tick reaches the first event's limit of 1"
    );
    let mut silent = Silence::new(2, 4);
    assert!(
        !silent.next_tick_is_quiet(true, false, true),
        "nothing written: a keep-alive is due"
    );
    silent.wrote();
    for _ in 0..3 {
        silent.quiet_tick();
        silent.wrote();
    }
    assert!(
        !silent.next_tick_is_quiet(true, false, true),
        "the next tick is the fourth: the timeout"
    );
}

proptest! {
    /// A quiet tick counted by JavaScript and one the pump ticks itself leave the silence in
    /// the same state: whatever mix, the timeout comes on the same tick.
    #[test]
    fn absorbed_ticks_count_as_ticks(absorbed in proptest::collection::vec(any::<bool>(), 0..12), limit in 2u64..20) {
        let mut pumped = Silence::new(limit, limit);
        let mut mixed = Silence::new(limit, limit);
        let mut n = 0u64;
        for absorb in absorbed {
            pumped.wrote();
            mixed.wrote();
            if !mixed.next_tick_is_quiet(true, false, true) {
                break;
            }
            n += 1;
            prop_assert_eq!(pumped.tick(true), Tick::Quiet);
            if absorb { mixed.quiet_tick() } else { prop_assert_eq!(mixed.tick(true), Tick::Quiet) }
        }
        let rest_pumped = ticks_to_timeout(&mut pumped, true).len();
        let rest_mixed = ticks_to_timeout(&mut mixed, true).len();
        prop_assert_eq!(rest_pumped, rest_mixed);
        prop_assert_eq!(n + rest_pumped as u64, limit);
    }
}

#[test]
fn a_body_never_read_stalls_one_check_at_a_time() {
    // `desiredSize` 1 when it opens; each write lowers it by one while nobody reads.
    let mut watch = ReaderWatch::new(1.0);
    watch.wrote(10);
    assert_eq!(
        watch.check(|| Some(0.0)),
        Progress::Moving,
        "one chunk buffered is not waiting"
    );
    watch.wrote(10);
    assert_eq!(watch.check(|| Some(-1.0)), Progress::Stalled(1));
    assert_eq!(
        watch.check(|| Some(-1.0)),
        Progress::Stalled(2),
        "no write, nothing read"
    );
    watch.wrote(10);
    assert_eq!(watch.check(|| Some(-2.0)), Progress::Stalled(3));
    assert!(!watch.has_read());
}

#[test]
fn a_stall_counts_out_at_its_limit() {
    assert!(!Progress::Moving.stalled_out(3));
    assert!(!Progress::Stalled(2).stalled_out(3));
    assert!(Progress::Stalled(3).stalled_out(3));
    assert!(Progress::Stalled(4).stalled_out(3));
}

#[test]
fn once_a_chunk_is_read_the_stall_rule_is_off_for_good() {
    let mut watch = ReaderWatch::new(1.0);
    watch.wrote(10);
    watch.wrote(10);
    assert_eq!(watch.check(|| Some(-1.0)), Progress::Stalled(1));
    // One chunk taken: `desiredSize` rose by one.
    assert_eq!(watch.check(|| Some(0.0)), Progress::Moving);
    assert!(watch.has_read());
    watch.wrote(10);
    watch.wrote(10);
    assert_eq!(
        watch.check(|| Some(-5.0)),
        Progress::Moving,
        "a slow reader is still there"
    );
    let mut asked = false;
    watch.check(|| {
        asked = true;
        Some(-5.0)
    });
    assert!(!asked, "once off, the rule does not ask the runtime");
    // A stream that errored or closed is the wiring's to report.
    let mut closed = ReaderWatch::new(1.0);
    closed.wrote(10);
    assert_eq!(closed.check(|| None), Progress::Moving);
}

#[test]
fn the_queued_bytes_are_the_newest_chunks_the_reader_has_not_taken() {
    let mut watch = ReaderWatch::new(1.0);
    for len in [100, 200, 300, 400] {
        watch.wrote(len);
    }
    // `desiredSize` -1: two chunks queued, one more in the transform: the newest three.
    assert_eq!(watch.queued_bytes(Some(-1.0)), 900);
    assert_eq!(watch.queued_bytes(Some(1.0)), 400, "one in the transform");
    watch.wrote(50);
    assert_eq!(watch.queued_bytes(Some(0.0)), 450);
    assert_eq!(watch.queued_bytes(Some(2.0)), 0);
    assert_eq!(watch.queued_bytes(None), 0, "a closed stream holds nothing");
}

#[test]
fn abort_goes_by_the_cause_and_the_rule() {
    let client = AbortRule {
        on_client_gone: true,
        on_agent_fault: false,
        request_id: None,
    };
    let fault = AbortRule {
        on_client_gone: false,
        on_agent_fault: true,
        request_id: None,
    };
    let cases = [
        (EndCause::ClientGone, true, false),
        (EndCause::SlowClient, true, false),
        (EndCause::Timeout, false, true),
        (EndCause::FrameTooLarge, false, true),
        (EndCause::SocketClosed, false, false),
        (EndCause::Crashed, false, false),
    ];
    for (cause, on_client, on_fault) in cases {
        assert_eq!(client.aborts_on(cause), on_client, "{cause:?}");
        assert_eq!(fault.aborts_on(cause), on_fault, "{cause:?}");
        assert!(!AbortRule::never().aborts_on(cause), "{cause:?}");
    }
}

#[test]
fn a_chat_request_owns_its_turn_unless_detached() {
    let owning = AbortRule::owning(OnDisconnect::Abort, Some("r1".into()));
    assert!(owning.aborts_on(EndCause::ClientGone) && owning.aborts_on(EndCause::Timeout));
    assert_eq!(owning.request_id.as_deref(), Some("r1"));
    let detached = AbortRule::owning(OnDisconnect::Detach, None);
    assert!(
        !detached.aborts_on(EndCause::ClientGone) && detached.aborts_on(EndCause::FrameTooLarge)
    );
}

#[test]
fn a_client_gone_without_abort_is_detached_in_the_log() {
    let gone = Some(StreamOutcome::Cut(EndCause::ClientGone));
    assert_eq!(log_outcome(gone, false), "detached");
    assert_eq!(log_outcome(gone, true), "client_gone");
    assert_eq!(
        log_outcome(Some(StreamOutcome::Finished), false),
        "finished"
    );
    assert_eq!(
        log_outcome(Some(StreamOutcome::Cut(EndCause::Timeout)), true),
        "timeout"
    );
    assert_eq!(log_outcome(None, false), "unknown");
}
