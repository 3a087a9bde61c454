//! The worker's settings read from `env`: defaults, bounds, and the error for each wrong value.

use super::*;
use std::collections::HashMap;

/// The settings `pairs` exactly, nothing else set.
fn as_given(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let vars: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Config::from_vars(|name| vars.get(name).cloned(), true)
}

/// The settings `pairs`, and `AUTH_MODE = "none"` unless they name one: the tests of other
/// settings than auth's.
fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let mut all = pairs.to_vec();
    if !pairs.iter().any(|(name, _)| *name == "AUTH_MODE") {
        all.push(("AUTH_MODE", "none"));
    }
    as_given(&all)
}

#[test]
fn no_auth_mode_is_jwt_which_refuses_without_its_keys() {
    let err = as_given(&[]).unwrap_err();
    assert_eq!(
        err.0,
        "AUTH_MODE is \"jwt\" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set"
    );
    let key = ("AUTH_SECRET", "k-0123456789-0123456789-01234567");
    assert!(matches!(
        as_given(&[key]).unwrap().auth,
        AuthMode::Jwt { .. }
    ));
    let jwks = ("JWKS_URL", "https://tenant.example/jwks");
    assert!(matches!(
        as_given(&[jwks]).unwrap().auth,
        AuthMode::Jwt { .. }
    ));
    // Open only when written out.
    assert_eq!(
        as_given(&[("AUTH_MODE", "none")]).unwrap().auth,
        AuthMode::None
    );
}

/// Every setting `from_vars` reads (with `AUTH_MODE = "none"`, so that it reads them all), in
/// the order it asks for them.
fn settings_read() -> Vec<String> {
    let asked = std::cell::RefCell::new(Vec::new());
    let read = Config::from_vars(
        |name| {
            asked.borrow_mut().push(name.to_owned());
            (name == "AUTH_MODE").then(|| "none".to_owned())
        },
        true,
    );
    assert!(read.is_ok(), "{read:?}");
    asked.into_inner()
}

#[test]
fn an_empty_setting_is_an_error_whatever_the_setting() {
    let names = settings_read();
    assert!(names.len() >= 25, "{names:?}");
    for name in &names {
        for empty in ["", "  ", "\t"] {
            let mut pairs = vec![(name.as_str(), empty)];
            if name != "AUTH_MODE" {
                pairs.push(("AUTH_MODE", "none"));
            }
            assert_eq!(
                as_given(&pairs).unwrap_err(),
                ConfigError(format!("{name} is set but empty")),
                "{name}={empty:?}"
            );
        }
    }
}

#[test]
fn the_configuration_page_lists_every_setting_read() {
    let page = include_str!("../../../docs/configuration.md");
    // The settings table: the rows after its header, to its first blank line.
    let table: Vec<&str> = page
        .lines()
        .skip_while(|line| !line.starts_with("| name | default | meaning |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .filter(|(_, after)| !after.starts_with(" (binding)"))
        .map(|(name, _)| name)
        .collect();
    let mut read = settings_read();
    read.sort();
    read.dedup();
    let mut documented: Vec<String> = table.iter().map(|name| (*name).to_owned()).collect();
    documented.sort();
    assert_eq!(read, documented);
}

#[test]
fn defaults_when_nothing_is_set() {
    let c = config(&[]).unwrap();
    assert_eq!(c.auth, AuthMode::None);
    assert_eq!(c.limits, Limits::default());
    assert_eq!(c.max_frame_bytes, DEFAULT_MAX_FRAME_BYTES);
    assert_eq!(c.max_buffered_bytes, DEFAULT_MAX_BUFFERED_BYTES);
    assert_eq!(c.first_event_timeout_ms, DEFAULT_FIRST_EVENT_TIMEOUT_MS);
    assert_eq!(c.idle_timeout_ms, DEFAULT_IDLE_TIMEOUT_MS);
    assert_eq!(
        (c.max_session_feeds, c.max_user_feeds, c.max_feeds),
        (8, 16, 1_000)
    );
    assert_eq!(c.agent_path, "/ws");
    assert!(!c.demo_agent);
    assert_eq!(c.on_disconnect, OnDisconnect::Abort);
    assert_eq!(c.resume_wait_ms, 0);
    assert_eq!(c.trace, Trace::default());
    assert!(!c.origins.allows("https://a.example"));
    assert_eq!(c.rate_limit_period_secs, 60);
    assert_eq!(c.stream_padding, 0, "no padding unless asked");
    assert_eq!(c.liveness_ping_ms, crate::liveness::DEFAULT_PING_MS);
}

#[test]
fn a_jwks_url_alone_makes_jwt_mode_valid() {
    let c = config(&[
        ("AUTH_MODE", "jwt"),
        ("JWKS_URL", " https://tenant.example/.well-known/jwks.json "),
        ("RATE_LIMIT_PERIOD_S", "10"),
    ])
    .unwrap();
    match c.auth {
        AuthMode::Jwt {
            secret, jwks_url, ..
        } => {
            assert_eq!(secret, None);
            assert_eq!(
                jwks_url.as_deref(),
                Some("https://tenant.example/.well-known/jwks.json")
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.rate_limit_period_secs, 10);
    assert_eq!(
        config(&[("AUTH_MODE", "jwt")]).unwrap_err().0,
        "AUTH_MODE is \"jwt\" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set"
    );
    assert_eq!(
        config(&[
            ("AUTH_MODE", "jwt"),
            ("JWKS_URL", "http://tenant.example/jwks")
        ])
        .unwrap_err()
        .0,
        "JWKS_URL must be an https: URL (http: only to 127.0.0.1 or localhost)"
    );
}

#[test]
fn values_are_read() {
    let c = config(&[
        ("AUTH_MODE", "token"),
        ("AUTH_SECRET", "k-0123456789-0123456789-01234567"),
        ("ALLOWED_ORIGINS", "https://a.example"),
        ("MAX_BODY_BYTES", "1_000"),
        ("MAX_MESSAGE_BYTES", "500"),
        ("MAX_MESSAGES", "3"),
        ("MAX_PROMPT_CHARS", "7"),
        ("MAX_FRAME_BYTES", "9"),
        ("MAX_BUFFERED_BYTES", "4096"),
        ("FIRST_EVENT_TIMEOUT_MS", "100"),
        ("IDLE_TIMEOUT_MS", "200"),
        ("AGENT_PATH", "/agent"),
        ("DEMO_AGENT", "on"),
        ("ON_DISCONNECT", "detach"),
        ("RESUME_WAIT_MS", "1500"),
        ("STREAM_PADDING", "1024"),
        ("TRACE", "minimal"),
        ("MAX_TOOL_JSON_CHARS", "99"),
        ("MAX_SESSION_FEEDS", "2"),
        ("MAX_USER_FEEDS", "4"),
        ("MAX_FEEDS", "50"),
        ("LIVENESS_PING_MS", "500"),
    ])
    .unwrap();
    assert_eq!(c.liveness_ping_ms, 500);
    assert_eq!(
        (c.max_session_feeds, c.max_user_feeds, c.max_feeds),
        (2, 4, 50)
    );
    assert_eq!(
        c.trace,
        Trace {
            mode: TraceMode::Minimal,
            max_tool_json_chars: 99
        }
    );
    assert_eq!(c.resume_wait_ms, 1500);
    assert_eq!(c.stream_padding, 1024);
    assert_eq!(c.on_disconnect, OnDisconnect::Detach);
    assert_eq!(
        c.auth,
        AuthMode::Token {
            secret: "k-0123456789-0123456789-01234567".into()
        }
    );
    assert!(c.origins.allows("https://a.example"));
    assert_eq!(
        c.limits,
        Limits {
            max_body_bytes: 1000,
            max_message_bytes: 500,
            max_messages: 3,
            max_prompt_chars: 7
        }
    );
    assert_eq!(
        (
            c.max_frame_bytes,
            c.first_event_timeout_ms,
            c.idle_timeout_ms
        ),
        (9, 100, 200)
    );
    assert_eq!(c.agent_path, "/agent");
    assert_eq!(c.max_buffered_bytes, 4096);
    assert!(c.demo_agent);
}

#[test]
fn the_demo_is_on_only_in_a_build_that_has_it() {
    let on = |demo_built| {
        Config::from_vars(
            |name| match name {
                "DEMO_AGENT" => Some("on".into()),
                "AUTH_MODE" => Some("none".into()),
                _ => None,
            },
            demo_built,
        )
    };
    assert!(on(true).unwrap().demo_agent);
    assert!(on(false).unwrap_err().0.contains("no demo agent"));
}

#[test]
fn bad_values_are_errors_not_defaults() {
    for bad in [
        ("MAX_BODY_BYTES", "lots"),
        ("MAX_MESSAGES", "0"),
        ("IDLE_TIMEOUT_MS", "-5"),
        ("DEMO_AGENT", "yes"),
        ("ON_DISCONNECT", "ignore"),
        ("RESUME_WAIT_MS", "soon"),
        ("LIVENESS_PING_MS", "99"),
        ("LIVENESS_PING_MS", "60001"),
        ("LIVENESS_PING_MS", "often"),
        ("TRACE", "verbose"),
        ("MAX_TOOL_JSON_CHARS", "0"),
        ("AGENT_PATH", "ws"),
        ("AUTH_MODE", "jwt"),
        ("AUTH_MODE", "open"),
        ("JWT_MAX_AGE_S", "0"),
        ("JWT_MAX_AGE_S", "1h"),
        ("JWT_MAX_AGE_S", ""),
        ("JWT_SESSIONS_CLAIM", ""),
        ("JWT_SESSIONS_CLAIM", "  "),
        ("JWT_SESSIONS_CLAIM", "sub"),
        ("JWT_SESSIONS_CLAIM", "exp"),
        ("JWT_ISSUER", " "),
        ("JWT_AUDIENCE", ""),
        ("JWKS_URL", ""),
        ("JWKS_URL", "https://tenant.example/jwks"),
        ("RATE_LIMIT_PERIOD_S", "30"),
        ("RATE_LIMIT_PERIOD_S", "0"),
        ("RATE_LIMIT_PERIOD_S", "1m"),
        ("STREAM_PADDING", "511"),
        ("STREAM_PADDING", "4097"),
        ("STREAM_PADDING", "1k"),
        ("STREAM_PADDING", "-1"),
    ] {
        assert!(config(&[bad]).is_err(), "{bad:?}");
    }
}

#[test]
fn jwt_rules_are_read_as_given() {
    let jwt = |pairs: &[(&str, &str)]| {
        let mut all = vec![
            ("AUTH_MODE", "jwt"),
            ("AUTH_SECRET", "k-0123456789-0123456789-01234567"),
        ];
        all.extend_from_slice(pairs);
        match config(&all).unwrap().auth {
            AuthMode::Jwt { rules, .. } => rules,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(jwt(&[]), JwtRules::default());
    assert_eq!(jwt(&[]).sessions_claim, "sessions");
    assert_eq!(jwt(&[]).max_age_secs, None);
    let rules = jwt(&[
        ("JWT_SESSIONS_CLAIM", " https://example.com/sessions "),
        ("JWT_MAX_AGE_S", "3_600"),
        ("JWT_ISSUER", " https://tenant.example/ "),
        ("JWT_AUDIENCE", "https://api.example"),
    ]);
    assert_eq!(
        rules,
        JwtRules {
            sessions_claim: "https://example.com/sessions".into(),
            max_age_secs: Some(3600),
            issuer: Some("https://tenant.example/".into()),
            audience: Some("https://api.example".into()),
        }
    );
    assert_eq!(
        config(&[("JWT_SESSIONS_CLAIM", "sub")]).unwrap_err().0,
        "JWT_SESSIONS_CLAIM must name a claim other than iss, sub, aud, exp, nbf, iat and jti"
    );
    assert_eq!(
        config(&[("JWT_MAX_AGE_S", "0")]).unwrap_err().0,
        "JWT_MAX_AGE_S must be a positive integer"
    );
}

#[test]
fn trace_max_caps_and_must_not_be_below_the_default() {
    assert_eq!(config(&[]).unwrap().trace_max, TraceMode::Full);
    let c = config(&[("TRACE_MAX", "normal"), ("TRACE", "minimal")]).unwrap();
    assert_eq!(c.trace_max, TraceMode::Normal);
    assert_eq!(
        config(&[("TRACE_MAX", "everything")]).unwrap_err(),
        ConfigError("TRACE_MAX must be \"minimal\", \"normal\" or \"full\"".into())
    );
    // Unset, TRACE is the cap; named above it, an error.
    assert_eq!(
        config(&[("TRACE_MAX", "normal")]).unwrap().trace.mode,
        TraceMode::Normal
    );
    assert_eq!(
        config(&[("TRACE_MAX", "normal"), ("TRACE", "full")]).unwrap_err(),
        ConfigError(
            "TRACE must not show more than TRACE_MAX allows (minimal < normal < full)".into()
        )
    );
}

#[test]
fn a_head_reads_the_headers_these_settings_use() {
    let all = HeaderSet::ALL;
    let open = config(&[("AUTH_MODE", "none")]).unwrap();
    assert_eq!(
        open.headers_read(),
        all.without(Field::Origin).without(Field::Authorization),
        "no CORS, no credentials: none of their headers; the address keys a feed's caller"
    );
    let guarded = config(&[
        ("AUTH_MODE", "token"),
        ("AUTH_SECRET", "s3cret-s3cret-s3cret-s3cret-s3cret"),
        ("ALLOWED_ORIGINS", "https://app.example"),
    ])
    .unwrap();
    assert_eq!(guarded.headers_read(), all);
    assert!(open.headers_read().contains(Field::ConversationsKey));
    let jwt = config(&[
        ("AUTH_MODE", "jwt"),
        ("AUTH_SECRET", "s3cret-s3cret-s3cret-s3cret-s3cret"),
    ])
    .unwrap();
    assert_eq!(
        jwt.headers_read(),
        all.without(Field::Origin).without(Field::ConversationsKey),
        "a JWT's `sub` names its list of conversations: the header is never read"
    );
    let any_origin = config(&[("AUTH_MODE", "none"), ("ALLOWED_ORIGINS", "*")]).unwrap();
    assert!(any_origin.headers_read().contains(Field::Origin));
    for read in [open.headers_read(), guarded.headers_read()] {
        for field in [
            Field::ContentType,
            Field::ContentLength,
            Field::AccessControlRequestHeaders,
            Field::ClientIp,
        ] {
            assert!(read.contains(field), "{field:?} is always read");
        }
    }
}

#[test]
fn the_playground_of_the_agent_bound_only_without_auth() {
    let built = |playground: &'static str, auth: &'static str, demo_built: bool| {
        Config::from_vars(
            move |name| match name {
                "PLAYGROUND" => Some(playground.into()),
                "AUTH_MODE" => Some(auth.into()),
                "AUTH_SECRET" => Some("a-secret-of-at-least-32-bytes-long!!".into()),
                _ => None,
            },
            demo_built,
        )
    };
    let with = |playground, auth| built(playground, auth, true);
    // A production build has no playground: turning it on is a mistake to name.
    let production = built("on", "none", false).unwrap_err().0;
    assert!(production.contains("no playground"), "{production}");
    assert!(with("on", "none").unwrap().playground);
    assert!(!with("off", "none").unwrap().playground);
    let refused = with("on", "token").unwrap_err().0;
    assert!(
        refused.contains("PLAYGROUND") && refused.contains("AUTH_MODE"),
        "{refused}"
    );
    assert!(with("yes", "none")
        .unwrap_err()
        .0
        .contains("PLAYGROUND must be"));
    // Unset: off, whatever the auth.
    let unset = Config::from_vars(|name| (name == "AUTH_MODE").then(|| "none".into()), false);
    assert!(!unset.unwrap().playground);
}

#[test]
fn one_caller_may_not_hold_every_feed_place() {
    let refused = ConfigError(
        "MAX_USER_FEEDS must be less than MAX_FEEDS (one caller must not hold every place)".into(),
    );
    for (user, total) in [("10", "10"), ("11", "10")] {
        assert_eq!(
            config(&[("MAX_USER_FEEDS", user), ("MAX_FEEDS", total)]).unwrap_err(),
            refused
        );
    }
    // Unset, it stays below a MAX_FEEDS set lower than its default.
    let low = |total: &str| config(&[("MAX_FEEDS", total)]).unwrap().max_user_feeds;
    assert_eq!((low("3"), low("17"), low("18")), (2, 16, 16));
    // One place has nothing to share.
    assert_eq!(low("1"), 1);
    assert_eq!(
        config(&[("MAX_USER_FEEDS", "0")]).unwrap_err(),
        ConfigError("MAX_USER_FEEDS must be a positive integer".into())
    );
}
