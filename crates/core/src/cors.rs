//! CORS for widgets on other origins: an allow-list, preflights, and the response header.
//!
//! Allowed origins get `Access-Control-Allow-Origin: <their origin>` (never `*`, so a
//! bearer token can ride along), `Vary: Origin` and, on actual responses,
//! `Access-Control-Expose-Headers: x-request-id, retry-after, ratelimit, x-trace-max, x-history-before`; every other origin gets no CORS header at
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
const EXPOSED_HEADERS: &str = "x-request-id, retry-after, ratelimit, x-trace-max, x-history-before";

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
#[path = "cors_tests.rs"]
mod tests;
