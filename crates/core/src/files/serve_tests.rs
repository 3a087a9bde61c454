//! Tests of `files::serve`: the headers of a served file.

use super::*;

/// The lines of `file_headers` as pairs.
fn pairs(lines: &str) -> Vec<(&str, &str)> {
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len() % 2, 0, "{lines:?}");
    lines.chunks(2).map(|pair| (pair[0], pair[1])).collect()
}

fn header<'a>(lines: &'a str, name: &str) -> Option<&'a str> {
    pairs(lines)
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

#[test]
fn a_raster_image_is_inline_and_kept_within_its_url_life() {
    let h = file_headers(
        Some("image/png"),
        Some("cat.png"),
        Cache::Signed { secs_left: 120 },
        RangeAnswer::Whole,
        10,
    );
    assert_eq!(
        pairs(&h),
        [
            ("content-type", "image/png"),
            ("x-content-type-options", "nosniff"),
            ("content-disposition", "inline; filename*=UTF-8''cat.png"),
            ("content-security-policy", "default-src 'none'; sandbox"),
            ("accept-ranges", "bytes"),
            ("cache-control", "private, max-age=120"),
        ]
    );
}

#[test]
fn svg_html_and_every_other_type_are_attachments_in_a_sandbox() {
    for media in [
        "image/svg+xml",
        "text/html",
        "application/pdf",
        "text/plain",
        "application/xhtml+xml",
    ] {
        let h = file_headers(Some(media), None, Cache::Credentials, RangeAnswer::Whole, 1);
        assert_eq!(header(&h, "content-type"), Some(media));
        assert_eq!(
            header(&h, "content-disposition"),
            Some("attachment"),
            "{media}"
        );
        assert_eq!(header(&h, "content-security-policy"), Some(FILE_CSP));
        assert_eq!(header(&h, "cache-control"), Some("private, no-cache"));
    }
}

#[test]
fn a_stored_type_that_does_not_parse_is_octet_stream() {
    for stored in [None, Some(""), Some("html"), Some("text/html <script>")] {
        let h = file_headers(stored, None, Cache::Credentials, RangeAnswer::Whole, 1);
        assert_eq!(header(&h, "content-type"), Some("application/octet-stream"));
        assert_eq!(header(&h, "content-disposition"), Some("attachment"));
    }
}

#[test]
fn a_part_says_its_range() {
    let part = RangeAnswer::Part {
        offset: 2,
        length: 3,
    };
    let h = file_headers(Some("image/png"), None, Cache::Credentials, part, 10);
    assert_eq!(header(&h, "content-range"), Some("bytes 2-4/10"));
}

#[test]
fn a_range_past_the_end_is_refused_with_the_size() {
    let refused = range_not_satisfiable(10);
    assert_eq!(refused.kind, RANGE_NOT_SATISFIABLE);
    assert_eq!(
        refused.headers,
        [("content-range", "bytes */10".to_owned())]
    );
    assert_eq!(file_not_found().kind, FILE_NOT_FOUND);
}
