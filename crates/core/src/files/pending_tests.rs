use super::*;

const ID: &str = "0123456789abcdef0123456789abcdef";
const HOUR: u64 = 3_600_000;

fn id() -> FileId {
    FileId::parse(ID).unwrap()
}

#[test]
fn a_marker_is_beside_no_file_and_names_its_file() {
    let marker = marker_key("s1", &id());
    assert_eq!(marker, format!("pending/s1/{ID}"));
    assert!(marker.starts_with(&marker_prefix("s1")));
    assert!(!marker.starts_with(&crate::files::session_prefix("s1")));
    assert_eq!(
        file_of_marker(&marker),
        Some(format!("sessions/s1/files/{ID}"))
    );
}

#[test]
fn a_key_that_is_no_marker_names_no_file() {
    for key in [
        format!("sessions/s1/files/{ID}"),
        format!("pending//{ID}"),
        format!("pending/s1/x/{ID}"),
        "pending/s1/0123".to_owned(),
        "pending/s1".to_owned(),
    ] {
        assert_eq!(file_of_marker(&key), None, "{key}");
    }
}

#[test]
fn a_sweep_deletes_what_is_older_than_the_life_and_nothing_else() {
    let made = 1_000 * HOUR;
    let old = marker_key("old", &id());
    let young = marker_key("young", &id());
    let lines = format!(
        "{old}\t{made}\n{young}\t{}\nnot a marker\t0\n{old}x\t0\n",
        made + 2 * HOUR
    );
    // One hour short of the old one's day: nothing.
    assert!(expired_keys(&lines, made + 23 * HOUR, 24).is_empty());
    // At its day: it and its file, marker first; the younger one stays.
    assert_eq!(
        expired_keys(&lines, made + 24 * HOUR, 24),
        [old.clone(), format!("sessions/old/files/{ID}")]
    );
    // Both, later.
    assert_eq!(expired_keys(&lines, made + 30 * HOUR, 24).len(), 4);
}

#[test]
fn a_marker_whose_time_does_not_parse_is_left_alone() {
    let marker = marker_key("s", &id());
    for line in [
        format!("{marker}\t"),
        format!("{marker}\t-1"),
        format!("{marker}\tsoon"),
        marker.clone(),
    ] {
        assert!(expired_keys(&line, u64::MAX, 1).is_empty(), "{line}");
    }
}
