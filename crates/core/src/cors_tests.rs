//! Tests of `cors`.

use super::*;

#[test]
fn only_listed_origins_get_headers() {
    let allowed = AllowedOrigins::parse("https://app.example, https://Widget.example/");
    assert!(allowed.allows("https://app.example"));
    assert!(allowed.allows("https://widget.example"));
    assert!(!allowed.allows("https://evil.example"));
    assert!(!allowed.allows("https://app.example.evil"));
    assert!(!allowed.allows("null"));
    assert_eq!(
        allowed.response_headers(Some("https://app.example")),
        [
            (
                "access-control-allow-origin",
                "https://app.example".to_owned()
            ),
            ("vary", "Origin".to_owned()),
            (
                "access-control-expose-headers",
                "x-request-id, retry-after, ratelimit, x-trace-max, x-history-before".to_owned()
            )
        ]
    );
    assert!(allowed
        .response_headers(Some("https://evil.example"))
        .is_empty());
    assert!(allowed.response_headers(None).is_empty());
    assert!(AllowedOrigins::parse("")
        .response_headers(Some("https://a"))
        .is_empty());
}

#[test]
fn star_allows_any_origin_but_echoes_it() {
    let any = AllowedOrigins::parse("*");
    assert_eq!(
        any.response_headers(Some("https://x.example"))[0],
        (
            "access-control-allow-origin",
            "https://x.example".to_owned()
        )
    );
}

#[test]
fn actual_responses_expose_the_request_id_to_allowed_origins_only() {
    let expose = (
        "access-control-expose-headers",
        "x-request-id, retry-after, ratelimit, x-trace-max, x-history-before".to_owned(),
    );
    for config in ["https://app.example", "*"] {
        let headers = AllowedOrigins::parse(config).response_headers(Some("https://app.example"));
        assert_eq!(headers.last(), Some(&expose), "{config}");
    }
    let allowed = AllowedOrigins::parse("https://app.example");
    for origin in [Some("https://evil.example"), Some("null"), None] {
        assert!(allowed.response_headers(origin).is_empty(), "{origin:?}");
    }
    // A preflight answers what may be sent; exposing is for what is read.
    let preflight = allowed.preflight_headers(Some("https://app.example"), None, "POST");
    assert!(!preflight.iter().any(|(name, _)| *name == expose.0));
}

#[test]
fn preflights_allow_the_requested_headers_when_well_formed() {
    let allowed = AllowedOrigins::parse("https://app.example");
    let headers = allowed.preflight_headers(
        Some("https://app.example"),
        Some("Content-Type, X-Api-Key"),
        "POST, OPTIONS",
    );
    assert!(headers.contains(&("access-control-allow-methods", "POST, OPTIONS".to_owned())));
    assert!(headers.contains(&(
        "access-control-allow-headers",
        "Content-Type, X-Api-Key".to_owned()
    )));
    assert!(headers.contains(&("access-control-max-age", "7200".to_owned())));
    let odd = allowed.preflight_headers(
        Some("https://app.example"),
        Some("a b, \r\nx"),
        "GET, OPTIONS",
    );
    assert!(odd.contains(&("access-control-allow-methods", "GET, OPTIONS".to_owned())));
    assert!(odd.contains(&(
        "access-control-allow-headers",
        DEFAULT_ALLOWED_HEADERS.to_owned()
    )));
    assert!(allowed
        .preflight_headers(Some("https://evil.example"), None, "POST")
        .is_empty());
}
