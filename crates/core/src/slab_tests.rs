//! Tests of `slab`.

use super::*;

#[test]
fn a_key_finds_its_value_until_it_is_removed() {
    let mut slab = Slab::new();
    let a = slab.insert("a");
    let b = slab.insert("b");
    assert_eq!(slab.get_mut(a), Some(&mut "a"));
    assert_eq!(slab.get_mut(b), Some(&mut "b"));
    assert_eq!(slab.remove(a), Some("a"));
    assert_eq!(slab.get_mut(a), None);
    assert_eq!(slab.remove(a), None);
    assert_eq!(slab.get_mut(b), Some(&mut "b"));
    assert_eq!(slab.len(), 1);
}

#[test]
fn a_stale_key_does_not_find_the_value_that_reused_its_slot() {
    let mut slab = Slab::new();
    let old = slab.insert(1);
    slab.remove(old);
    let new = slab.insert(2);
    assert_eq!(new.slot, old.slot, "the slot is reused");
    assert_ne!(new.generation, old.generation);
    assert_eq!(slab.get_mut(old), None);
    assert_eq!(slab.remove(old), None);
    assert_eq!(slab.remove(new), Some(2));
}

#[test]
fn it_grows_only_to_the_most_values_held_at_once() {
    let mut slab = Slab::new();
    for round in 0..100 {
        let keys: Vec<Key> = (0..3).map(|i| slab.insert(round * 3 + i)).collect();
        for key in keys {
            assert!(slab.remove(key).is_some());
        }
    }
    assert_eq!(slab.slots.len(), 3);
    assert_eq!(slab.len(), 0);
}

#[test]
fn a_key_of_a_slot_never_made_finds_nothing() {
    let mut slab: Slab<u8> = Slab::new();
    let key = Key {
        slot: 7,
        generation: 0,
    };
    assert_eq!(slab.get_mut(key), None);
    assert_eq!(slab.remove(key), None);
}
