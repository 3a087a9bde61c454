//! Tests of `files::range`: RFC 9110's byte ranges against a file's size.

use super::*;

const SIZE: u64 = 1000;

fn part(offset: u64, length: u64) -> RangeAnswer {
    RangeAnswer::Part { offset, length }
}

#[test]
fn one_byte_range_is_a_part() {
    assert_eq!(RangeAnswer::of(Some("bytes=0-99"), SIZE), part(0, 100));
    assert_eq!(RangeAnswer::of(Some("bytes=500-"), SIZE), part(500, 500));
    assert_eq!(RangeAnswer::of(Some("bytes=-10"), SIZE), part(990, 10));
    assert_eq!(
        RangeAnswer::of(Some("Bytes = 10 - 19 "), SIZE),
        part(10, 10)
    );
    assert_eq!(RangeAnswer::of(Some("bytes=999-999"), SIZE), part(999, 1));
}

#[test]
fn a_range_past_the_end_is_cut_to_it() {
    assert_eq!(
        RangeAnswer::of(Some("bytes=900-5000"), SIZE),
        part(900, 100)
    );
    assert_eq!(RangeAnswer::of(Some("bytes=-5000"), SIZE), part(0, 1000));
}

#[test]
fn a_range_that_starts_past_the_end_is_unsatisfiable() {
    for range in ["bytes=1000-", "bytes=1000-2000", "bytes=-0"] {
        assert_eq!(
            RangeAnswer::of(Some(range), SIZE),
            RangeAnswer::Unsatisfiable,
            "{range}"
        );
    }
    assert_eq!(
        RangeAnswer::of(Some("bytes=0-"), 0),
        RangeAnswer::Unsatisfiable
    );
    assert_eq!(
        RangeAnswer::of(Some("bytes=-1"), 0),
        RangeAnswer::Unsatisfiable
    );
}

#[test]
fn anything_else_is_the_whole_file() {
    for range in [
        None,
        Some(""),
        Some("bytes"),
        Some("items=0-1"),
        Some("bytes=0-1,5-6"),
        Some("bytes=5-1"),
        Some("bytes=a-1"),
        Some("bytes=1-b"),
        Some("bytes=-"),
        Some("bytes=+1-2"),
        Some("bytes=99999999999999999999999-"),
    ] {
        assert_eq!(
            RangeAnswer::of(range, SIZE),
            RangeAnswer::Whole,
            "{range:?}"
        );
    }
}

#[test]
fn content_range_says_the_part_and_the_size() {
    assert_eq!(part(0, 100).content_range(SIZE).unwrap(), "bytes 0-99/1000");
    assert_eq!(
        RangeAnswer::Unsatisfiable.content_range(SIZE).unwrap(),
        "bytes */1000"
    );
    assert_eq!(RangeAnswer::Whole.content_range(SIZE), None);
}
