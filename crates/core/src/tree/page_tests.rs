//! Pages of a branch: the newest first, older ones before a message, a branch through any message
//! to its newest descendant, and siblings.

use super::{page, siblings, Page, Want, MAX_PAGE_MESSAGES};
use crate::session::Role;
use crate::tree::{MemTree, TreeRead};

/// A straight conversation of `n` messages, keys `m1` … `mn`.
fn straight(n: usize) -> MemTree {
    let mut tree = MemTree::new();
    for i in 1..=n {
        let role = if i % 2 == 1 {
            Role::User
        } else {
            Role::Assistant
        };
        let parent = (i > 1).then(|| format!("m{}", i - 1));
        tree.insert(&format!("m{i}"), &format!("m{i}"), role, parent.as_deref());
    }
    tree
}

fn keys(page: &Page) -> Vec<&str> {
    page.nodes.iter().map(|n| n.key.as_str()).collect()
}

#[test]
fn the_newest_page_comes_first_then_older_ones_before_it() {
    let tree = straight(7);
    let first = page(&tree, Want::Current, 3).unwrap();
    assert_eq!(keys(&first), ["m5", "m6", "m7"]);
    assert!(first.more);
    let second = page(&tree, Want::Before("m5"), 3).unwrap();
    assert_eq!(keys(&second), ["m2", "m3", "m4"]);
    assert!(second.more);
    let last = page(&tree, Want::Before("m2"), 3).unwrap();
    assert_eq!(keys(&last), ["m1"]);
    assert!(!last.more);
    let none = page(&tree, Want::Before("m1"), 3).unwrap();
    assert_eq!(none, Page::default());
}

#[test]
fn a_page_is_never_larger_than_the_bound_whatever_is_asked() {
    let tree = straight(450);
    let asked = page(&tree, Want::Current, 10_000).unwrap();
    assert_eq!(asked.nodes.len(), MAX_PAGE_MESSAGES);
    assert!(asked.more);
    assert_eq!(page(&tree, Want::Current, 0).unwrap().nodes.len(), 1);
}

#[test]
fn an_unknown_message_is_none_and_an_empty_store_an_empty_page() {
    let tree = straight(3);
    assert_eq!(page(&tree, Want::Leaf("nope"), 10), None);
    assert_eq!(page(&tree, Want::Before("nope"), 10), None);
    assert_eq!(
        page(&MemTree::new(), Want::Current, 10),
        Some(Page::default())
    );
}

#[test]
fn a_branch_through_a_message_goes_on_to_its_newest_descendant() {
    // m1 → m2 → m3 → m4, and a retry of m2: m2b → (u) m3b → m4b, then a newer m4 retry m4c.
    let mut tree = straight(4);
    tree.insert("m2b", "m2b", Role::Assistant, Some("m1"));
    tree.insert("m3b", "m3b", Role::User, Some("m2b"));
    tree.insert("m4b", "m4b", Role::Assistant, Some("m3b"));
    tree.insert("m4c", "m4c", Role::Assistant, Some("m3"));
    assert_eq!(
        keys(&page(&tree, Want::Current, 10).unwrap()),
        ["m1", "m2", "m3", "m4c"]
    );
    assert_eq!(
        keys(&page(&tree, Want::Leaf("m2b"), 10).unwrap()),
        ["m1", "m2b", "m3b", "m4b"]
    );
    assert_eq!(
        keys(&page(&tree, Want::Leaf("m4"), 10).unwrap()),
        ["m1", "m2", "m3", "m4"]
    );
    assert_eq!(
        keys(&page(&tree, Want::Leaf("m1"), 10).unwrap()),
        ["m1", "m2", "m3", "m4c"]
    );
    let m2 = tree.node("m2").unwrap();
    assert_eq!(siblings(&tree, &m2), ["m2", "m2b"]);
    let m4c = tree.node("m4c").unwrap();
    assert_eq!(siblings(&tree, &m4c), ["m4", "m4c"]);
    assert!(
        siblings(&tree, &tree.node("m3").unwrap()).is_empty(),
        "no picker"
    );
}

#[test]
fn roots_are_siblings_of_each_other() {
    let mut tree = straight(2);
    tree.insert("r2", "m1", Role::User, None);
    let r2 = tree.node("r2").unwrap();
    assert_eq!(siblings(&tree, &r2), ["m1", "r2"]);
    assert_eq!(keys(&page(&tree, Want::Current, 10).unwrap()), ["r2"]);
}

#[test]
fn a_ref_is_url_safe_and_bounded() {
    use crate::tree::is_ref;
    assert!(is_ref("msg_0a1b2c3d4e5f6a7b"));
    assert!(is_ref("u.1:2~3-4"));
    for bad in ["", "a b", "a/b", "a?b", "é", &"x".repeat(129)] {
        assert!(!is_ref(bad), "{bad:?}");
    }
    assert!(is_ref(&"x".repeat(128)));
}
