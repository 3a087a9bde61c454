//! Tests of `persona`.

use super::*;

#[test]
fn each_prefix_plays_its_agent() {
    let cases = [
        ("s1", Persona::Full, Some(7), true, true, true),
        ("noinit-1", Persona::NoInit, None, false, true, true),
        ("noinflight-1", Persona::NoInFlight, None, true, false, true),
        ("proto4-1", Persona::Proto4, Some(4), true, true, false),
    ];
    for (id, persona, protocol, init, in_flight, tree) in cases {
        let played = Persona::of(id);
        assert_eq!(played, persona, "{id}");
        assert_eq!(played.protocol(), protocol, "{id}");
        assert_eq!(played.sends_init(), init, "{id}");
        assert_eq!(played.lists_in_flight(), in_flight, "{id}");
        assert_eq!(played.keeps_tree(), tree, "{id}");
    }
    // A prefix counts only at the start.
    assert_eq!(Persona::of("my-proto4-session"), Persona::Full);
}
