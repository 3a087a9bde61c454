//! CORS for widgets on other origins: an allow-list, preflights, and the response header.
//!
//! Allowed origins get `Access-Control-Allow-Origin: <their origin>` (never `*`, so a
//! bearer token can ride along), `Vary: Origin` and, on actual responses,
//! `Access-Control-Expose-Headers: x-request-id, retry-after, ratelimit, x-trace-max`; every other origin gets no CORS header at
//! all, and the browser keeps the response from its page.

/// How long a browser may cache a preflight, in seconds: 7200 is Chromium's cap
/// (Firefox allows 86400), so a higher value would buy nothing in most browsers.
pub const PREFLIGHT_MAX_AGE_SECS: u32 = 7200;

/// Headers a preflight allows when the browser names none, or names an invalid one:
/// what `DefaultChatTransport` sends (`content-type`) plus `authorization`.
const DEFAULT_ALLOWED_HEADERS: &str = "authorization, content-type";

/// Response headers a page may read beyond the CORS-safelisted ones: the request id, which
/// every 5xx message asks the user to quote, `Retry-After` (of a 429 or a 503) and a 429's
/// `RateLimit`, so that a client can wait as long as asked, and a history's `X-Trace-Max` (`TRACE_MAX`), so that a
/// panel's trace switch offers no mode the worker would not serve.
const EXPOSED_HEADERS: &str = "x-request-id, retry-after, ratelimit, x-trace-max";

/// The origins allowed to call the worker from a browser.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AllowedOrigins {
    any: bool,
    origins: Vec<String>,
}

impl AllowedOrigins {
    /// Parses `ALLOWED_ORIGINS`: origins separated by commas or spaces, or `*` for any.
    /// Trailing slashes are dropped and scheme and host compared case-insensitively,
    /// as browsers serialise origins in lower case.
    pub fn parse(config: &str) -> Self {
        let mut allowed = AllowedOrigins::default();
        for origin in config
            .split([',', ' ', '\n', '\t'])
            .filter(|s| !s.is_empty())
        {
            if origin == "*" {
                allowed.any = true;
            } else {
                allowed
                    .origins
                    .push(origin.trim_end_matches('/').to_ascii_lowercase());
            }
        }
        allowed
    }

    /// Whether no origin is allowed (`ALLOWED_ORIGINS` unset or empty): a request's `Origin`
    /// then changes nothing.
    pub fn is_none(&self) -> bool {
        !self.any && self.origins.is_empty()
    }

    /// Whether `origin` (the request's `Origin` header) may read responses.
    pub fn allows(&self, origin: &str) -> bool {
        origin != "null"
            && (self.any
                || self
                    .origins
                    .iter()
                    .any(|o| o.eq_ignore_ascii_case(origin.trim_end_matches('/'))))
    }

    /// The headers for an actual (non-preflight) response to `origin`: empty for an origin
    /// that is not allowed or absent.
    pub fn response_headers(&self, origin: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = self.origin_headers(origin);
        if !headers.is_empty() {
            headers.push(("access-control-expose-headers", EXPOSED_HEADERS.to_owned()));
        }
        headers
    }

    /// `Access-Control-Allow-Origin` and `Vary` for an allowed `origin`; empty for others.
    fn origin_headers(&self, origin: Option<&str>) -> Vec<(&'static str, String)> {
        match origin {
            Some(origin) if self.allows(origin) => vec![
                ("access-control-allow-origin", origin.to_owned()),
                ("vary", "Origin".to_owned()),
            ],
            _ => Vec::new(),
        }
    }

    /// The headers of a preflight (`OPTIONS`) answer, answered 204 either way: the CORS
    /// headers for an allowed origin, with the route's `methods`; nothing for others.
    pub fn preflight_headers(
        &self,
        origin: Option<&str>,
        requested_headers: Option<&str>,
        methods: &str,
    ) -> Vec<(&'static str, String)> {
        let mut headers = self.origin_headers(origin);
        if headers.is_empty() {
            return headers;
        }
        let allowed_headers = requested_headers
            .map(str::trim)
            .filter(|h| !h.is_empty() && h.split(',').all(|name| is_token(name.trim())))
            .unwrap_or(DEFAULT_ALLOWED_HEADERS);
        headers.push(("access-control-allow-methods", methods.to_owned()));
        headers.push(("access-control-allow-headers", allowed_headers.to_owned()));
        headers.push(("access-control-max-age", PREFLIGHT_MAX_AGE_SECS.to_string()));
        headers
    }
}

/// An HTTP header name (RFC 9110 `token`).
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
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
                    "x-request-id, retry-after, ratelimit, x-trace-max".to_owned()
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
            "x-request-id, retry-after, ratelimit, x-trace-max".to_owned(),
        );
        for config in ["https://app.example", "*"] {
            let headers =
                AllowedOrigins::parse(config).response_headers(Some("https://app.example"));
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
}
