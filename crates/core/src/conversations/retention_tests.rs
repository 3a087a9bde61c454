//! Tests of `retention`.

use super::*;

#[test]
fn the_setting_is_off_unset_and_a_whole_number_of_days_when_set() {
    assert_eq!(ttl_days(None), Ok(None));
    assert_eq!(ttl_days(Some("30")), Ok(Some(30)));
    assert_eq!(ttl_days(Some(" 1 ")), Ok(Some(1)));
    assert_eq!(ttl_days(Some("3650")), Ok(Some(3_650)));
    for bad in ["0", "3651", "1.5", "-1", "a week", ""] {
        assert!(ttl_days(Some(bad)).is_err(), "{bad:?}");
    }
}

#[test]
fn the_cutoff_is_the_days_before_the_trigger() {
    assert_eq!(cutoff(10 * DAY_MS + 7, 3), 7 * DAY_MS + 7);
    assert_eq!(cutoff(5, 3), 0, "never before the epoch");
}

#[test]
fn no_list_is_named_as_the_directory() {
    assert!(!DIRECTORY.contains(':'));
}
