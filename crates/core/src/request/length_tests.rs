//! Tests of `request::length`.

use super::*;

const MAX: usize = 4 * 1024 * 1024;

#[test]
fn a_length_within_the_limit_is_read() {
    assert_eq!(read_length(None, MAX), Ok(ContentLength::Absent));
    assert_eq!(read_length(Some("0"), MAX), Ok(ContentLength::Declared(0)));
    assert_eq!(
        read_length(Some(" 4194304 "), MAX),
        Ok(ContentLength::Declared(MAX))
    );
}

#[test]
fn a_length_over_the_limit_is_refused_before_the_body() {
    for value in ["4194305", "5000000", "99999999999999999999999999999"] {
        assert_eq!(
            read_length(Some(value), MAX),
            Err(LengthFault::Over),
            "{value}"
        );
    }
}

#[test]
fn a_length_that_is_no_number_is_refused() {
    for value in [
        "1e12",
        "",
        " ",
        "-1",
        "+5",
        "0x10",
        "5, 5",
        "5.0",
        "\u{661}\u{662}",
    ] {
        assert_eq!(
            read_length(Some(value), MAX),
            Err(LengthFault::NotANumber),
            "{value:?}"
        );
    }
}
