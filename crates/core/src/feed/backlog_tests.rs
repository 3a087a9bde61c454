use super::*;

/// A client that reads `rate` bytes between two writes (0: it stopped), against a feed that
/// writes `sizes`: the bytes queued after every write, and the syncs the feed sent.
fn run(sizes: &[usize], rate: impl Fn(usize) -> usize) -> (Vec<usize>, usize) {
    let mut backlog = Backlog::default();
    let mut queued = 0usize;
    let mut seen = Vec::new();
    let mut syncs = 0;
    for (i, &len) in sizes.iter().enumerate() {
        queued = queued.saturating_sub(rate(i));
        if backlog.caught_up(queued) {
            syncs += 1;
            queued += 40;
        }
        if backlog.admit(queued, len) == Admit::Write {
            queued += len;
        }
        seen.push(queued);
    }
    (seen, syncs)
}

/// Event sizes as a session's feed writes them: mostly small, a turn-start now and then up to
/// `MAX_MESSAGE_BYTES` and its ids (a simple generator: the same every run).
fn sizes(n: usize) -> Vec<usize> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 10 {
                0 => 16 * 1024 + (x % 2048) as usize,
                1..=3 => (x % 4096) as usize + 1,
                _ => 100 + (x % 100) as usize,
            }
        })
        .collect()
}

#[test]
fn a_client_that_stops_reading_never_has_more_than_the_bound_queued() {
    let events = sizes(10_000);
    let largest = events.iter().copied().max().unwrap();
    assert!(largest < MAX_QUEUED_BYTES);
    // Stopped after its first 10 events, for good.
    let (queued, syncs) = run(&events, |i| if i < 10 { usize::MAX } else { 0 });
    assert!(
        queued.iter().all(|&q| q <= MAX_QUEUED_BYTES),
        "{:?}",
        queued.iter().max()
    );
    assert_eq!(syncs, 0, "no sync to a client that never reads again");
    // A slow one (a few bytes a write), and one that stops and starts.
    for rate in [7usize, 150, 999] {
        let (queued, _) = run(&events, |_| rate);
        assert!(queued.iter().all(|&q| q <= MAX_QUEUED_BYTES), "rate {rate}");
    }
    let (queued, syncs) = run(&events, |i| if (i / 500) % 2 == 0 { 0 } else { usize::MAX });
    assert!(queued.iter().all(|&q| q <= MAX_QUEUED_BYTES));
    assert!(
        syncs > 0,
        "a sync each time it read again after falling behind"
    );
}

#[test]
fn one_event_goes_out_whatever_its_size_once_the_client_read_everything() {
    let mut backlog = Backlog::default();
    assert_eq!(backlog.admit(0, MAX_QUEUED_BYTES * 4), Admit::Write);
    assert_eq!(
        backlog.admit(LOW_WATER_BYTES, MAX_QUEUED_BYTES * 4),
        Admit::Write
    );
    assert!(!backlog.is_behind());
    // But not behind more than the low water.
    assert_eq!(
        backlog.admit(LOW_WATER_BYTES + 1, MAX_QUEUED_BYTES),
        Admit::Drop
    );
    assert!(backlog.is_behind());
}

#[test]
fn behind_it_drops_everything_until_the_client_took_every_byte_then_syncs_once() {
    let mut backlog = Backlog::default();
    assert_eq!(backlog.admit(MAX_QUEUED_BYTES - 10, 10), Admit::Write);
    assert_eq!(backlog.admit(MAX_QUEUED_BYTES, 1), Admit::Drop);
    // Room again, but still behind: even a small write waits for the sync.
    assert_eq!(backlog.admit(LOW_WATER_BYTES + 1, 3), Admit::Drop);
    assert!(!backlog.caught_up(LOW_WATER_BYTES + 1));
    assert_eq!(backlog.dropped(), 2);
    assert!(backlog.caught_up(LOW_WATER_BYTES));
    assert!(!backlog.caught_up(0), "one sync per falling behind");
    assert_eq!(backlog.admit(40, 200), Admit::Write);
}

#[test]
fn a_feed_never_behind_is_never_told_to_sync() {
    let mut backlog = Backlog::default();
    assert_eq!(backlog.admit(0, 100), Admit::Write);
    assert!(!backlog.caught_up(0));
    assert_eq!(backlog.dropped(), 0);
}
