//! The attach rule case by case: the operations of a stock AI SDK client and of stale devices,
//! each leaving every message stored and the turn where the client's list says.

use super::{attach, Attach, Place};
use crate::session::Role;
use crate::tree::{page, MemTree, TreeRead, Want};

/// A session: the tree as an agent stores its turns.
#[derive(Default)]
struct Session {
    tree: MemTree,
}

impl Session {
    /// One turn for a prompt of `text` with `message_id` after `branch`: its user message's key
    /// and its reply's id.
    fn turn(&mut self, message_id: &str, branch: &[&str], text: &str) -> (String, String) {
        let branch: Vec<String> = branch.iter().map(|s| (*s).to_owned()).collect();
        let place = Place {
            message_id: Some(message_id),
            branch: Some(&branch),
        };
        let turned = self.tree.turn(place, text);
        (turned.user.key, turned.reply.key)
    }

    /// The current branch as `id` (user messages) and reply ids.
    fn current(&self) -> Vec<String> {
        let page = page(&self.tree, Want::Current, 200).unwrap();
        page.nodes.into_iter().map(|n| n.id).collect()
    }
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn a_send_goes_on_after_the_clients_last_message() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &["u1", "a1"], "more");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a2"]));
}

#[test]
fn a_stale_devices_send_makes_a_branch_and_loses_nothing() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    // Device B loaded the history and sent u2.
    s.turn("u2", &["u1", "a1"], "from b");
    // Device A never saw u2: its send follows a1, beside u2.
    let (u3, _) = s.turn("u3", &["u1", "a1"], "from a");
    assert_eq!(s.current(), ids(&["u1", "a1", "u3", "a3"]));
    assert_eq!(s.tree.len(), 6, "every message kept");
    let node = s.tree.node(&u3).unwrap();
    let siblings: Vec<String> = crate::tree::siblings(&s.tree, &node);
    assert_eq!(siblings.len(), 2, "u2 is one step away: {siblings:?}");
}

#[test]
fn a_stale_regenerate_is_a_new_reply_beside_the_old_one() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &["u1", "a1"], "from b");
    // Device A holds [u1, a1] and regenerates: it sends [u1].
    let (user, _) = s.turn("u1", &[], "hi");
    assert_eq!(user, "k1", "the same user message");
    assert_eq!(s.current(), ids(&["u1", "a3"]));
    assert_eq!(s.tree.len(), 5);
    // a1's branch, with B's turn, is a sibling of the new reply.
    let a3 = s.tree.node("a3").unwrap();
    assert_eq!(crate::tree::siblings(&s.tree, &a3), ids(&["a1", "a3"]));
    let through_a1 = page(&s.tree, Want::Leaf("a1"), 200).unwrap();
    let shown: Vec<String> = through_a1.nodes.into_iter().map(|n| n.id).collect();
    assert_eq!(shown, ids(&["u1", "a1", "u2", "a2"]));
}

#[test]
fn a_client_whose_reply_never_came_follows_its_own_message() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    // The client holds [u1] only, and sends u3 after it.
    s.turn("u3", &["u1"], "again");
    assert_eq!(
        s.current(),
        ids(&["u1", "u3", "a2"]),
        "the client's conversation"
    );
    let a1 = s.tree.node("a1").unwrap();
    assert_eq!(
        crate::tree::siblings(&s.tree, &a1).len(),
        2,
        "a1 kept beside u3"
    );
}

#[test]
fn a_regenerate_and_an_edit_keep_what_they_replace() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &["u1", "a1"], "second");
    // regenerate(): [u1, a1, u2] again.
    let (user, _) = s.turn("u2", &["u1", "a1"], "second");
    assert_eq!(s.tree.node(&user).unwrap().id, "u2");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a3"]));
    // An edit of u2: the same id, other text: a new message beside it.
    let (edited, _) = s.turn("u2", &["u1", "a1"], "second, better");
    assert_ne!(edited, user);
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a4"]));
    let node = s.tree.node(&edited).unwrap();
    assert_eq!(crate::tree::siblings(&s.tree, &node).len(), 2);
    assert_eq!(
        s.tree.len(),
        7,
        "u1 a1 u2 a2 a3, then the edit and its reply"
    );
}

#[test]
fn an_id_of_another_role_or_other_content_replaces_nothing() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    // A user message under the reply's id, after u1.
    let (user, _) = s.turn("a1", &["u1"], "mine");
    assert_eq!(s.tree.node(&user).unwrap().role, Role::User);
    assert!(s.tree.node("a1").is_some(), "the reply stays");
    assert_eq!(s.tree.len(), 4);
}

#[test]
fn a_client_that_numbers_its_messages_again_starts_a_branch_and_loses_nothing() {
    let mut s = Session::default();
    s.turn("1", &[], "one");
    s.turn("2", &["1", "a1"], "two");
    s.turn("3", &["1", "a1", "2", "a2"], "three");
    // Reloaded, it numbers from 1 again and sends its first message.
    s.turn("1", &[], "a new start");
    assert_eq!(s.current(), ids(&["1", "a4"]));
    assert_eq!(s.tree.len(), 8);
    let roots = s.tree.children(None);
    assert_eq!(roots.len(), 2, "two first messages: one picker");
}

#[test]
fn a_branch_the_agent_never_had_goes_on_the_current_branch() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &["welcome", "nobody"], "more");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a2"]));
    // The client's own messages after known ones are passed over.
    s.turn("u3", &["u1", "a1", "u2", "a2", "refused"], "again");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a2", "u3", "a3"]));
}

#[test]
fn a_client_that_sends_only_its_last_message_regenerates_and_edits_it() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &[], "two");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a2"]), "appended");
    // regenerate(): [u2] alone.
    let (user, _) = s.turn("u2", &[], "two");
    assert_eq!(s.tree.node(&user).unwrap().key, "k3");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a3"]));
    // An edit of u2: [u2'] alone: beside u2.
    s.turn("u2", &[], "two, edited");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a4"]));
}

#[test]
fn of_two_edits_with_one_id_the_one_the_branch_shows_is_followed() {
    let mut s = Session::default();
    s.turn("u1", &[], "hi");
    s.turn("u2", &["u1", "a1"], "first");
    s.turn("u2", &["u1", "a1"], "second"); // an edit: u2 twice, beside each other
    s.turn("u3", &["u1", "a1", "u2", "a3"], "after the edit");
    // A client on the first u2's branch (it shows a2) sends after a2: unambiguous, a2 is unique.
    s.turn("u4", &["u1", "a1", "u2", "a2"], "on the first");
    assert_eq!(s.current(), ids(&["u1", "a1", "u2", "a2", "u4", "a5"]));
    // A client whose list ends at the edited u2 (its reply never came) follows that u2: the
    // newest of the two, whose earlier messages match as far as the other's.
    let (_, reply) = s.turn("u5", &["u1", "a1", "u2"], "after u2");
    let user = s.tree.node(&reply).unwrap().parent.unwrap();
    let follows = s.tree.node(&user).unwrap().parent.unwrap();
    assert_eq!(s.tree.said(&follows), Some("second"));
}

#[test]
fn ancestors_decide_between_messages_of_one_id() {
    let mut s = Session::default();
    // Two conversations' first messages, both numbered "1", each followed by a "2".
    s.turn("1", &[], "one");
    s.turn("2", &["1", "a1"], "two");
    s.turn("1", &[], "uno");
    s.turn("2", &["1", "a3"], "dos");
    // A client on the first conversation sends after its "2" (whose reply it never got).
    let (_, reply) = s.turn("3", &["1", "a1", "2"], "three");
    let user = s.tree.node(&reply).unwrap().parent.unwrap();
    let follows = s.tree.node(&user).unwrap().parent.unwrap();
    assert_eq!(
        s.tree.said(&follows),
        Some("two"),
        "the \"2\" after a1, though the other is newer"
    );
}

#[test]
fn an_empty_store_starts_a_conversation() {
    let s = Session::default();
    let branch = ids(&["welcome"]);
    let place = Place {
        message_id: Some("u1"),
        branch: Some(&branch),
    };
    assert_eq!(
        attach(&s.tree, place, |_| true),
        Attach::New { parent: None }
    );
    assert_eq!(
        attach(&s.tree, Place::default(), |_| true),
        Attach::New { parent: None }
    );
}
