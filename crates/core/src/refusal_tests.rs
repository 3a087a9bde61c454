//! Tests of `refusal`.

use super::*;
use crate::auth::AuthError;
use crate::rate_limit::RateLimited;

#[test]
fn every_code_is_listed_once_and_fits_its_status() {
    for (i, kind) in CATALOGUE.iter().enumerate() {
        assert!((400..600).contains(&kind.status), "{kind:?}");
        assert!(
            kind.code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{kind:?}"
        );
        assert!(
            !CATALOGUE[..i].iter().any(|other| other.code == kind.code),
            "{} twice",
            kind.code
        );
    }
}

#[test]
fn the_docs_table_is_the_catalogue() {
    let page = include_str!("../../../docs/endpoint.md");
    let table: Vec<(u16, &str)> = page
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| ")?;
            let (status, rest) = rest.split_once(" | `")?;
            let (code, _) = rest.split_once("` |")?;
            Some((status.parse().ok()?, code))
        })
        .collect();
    let catalogue: Vec<(u16, &str)> = CATALOGUE.iter().map(|kind| kind.pair()).collect();
    assert_eq!(
        table, catalogue,
        "docs/endpoint.md's errors table, row by row"
    );
}

#[test]
fn auth_refusals_carry_their_challenge_or_their_retry() {
    let header = |err: AuthError| Refusal::from(err).headers;
    assert_eq!(
        header(AuthError::Missing),
        [("www-authenticate", "Bearer".to_owned())]
    );
    assert_eq!(
        header(AuthError::Expired),
        [(
            "www-authenticate",
            "Bearer error=\"invalid_token\"".to_owned()
        )]
    );
    assert_eq!(header(AuthError::Forbidden), []);
    assert_eq!(
        header(AuthError::Unavailable {
            retry_after_secs: 10
        }),
        [("retry-after", "10".to_owned())]
    );
    let limited = Refusal::from(RateLimited {
        retry_after_secs: 60,
    });
    assert_eq!(limited.kind, RATE_LIMITED);
    assert_eq!(
        limited.headers,
        [
            ("retry-after", "60".to_owned()),
            ("ratelimit", r#""caller";r=0;t=60"#.to_owned())
        ]
    );
    let not_allowed = Refusal::method_not_allowed("GET, OPTIONS");
    assert_eq!(not_allowed.message, "This path only answers GET, OPTIONS.");
    assert_eq!(not_allowed.headers, [("allow", "GET, OPTIONS".to_owned())]);
}
