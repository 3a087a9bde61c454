//! The playground, `GET /` (with `DEMO_AGENT = "on"`, or `PLAYGROUND = "on"`): the chat panel of
//! `/widget.js` (a static asset) full-size on a page with a note on the demo agent's commands, or
//! on the agent bound (a team's own, `npm start -- --agent`), so that `npm start` opens onto
//! something a person can use.

use worker::Response;

use crate::exchange::Exchange;
use crate::request_log::Disposition;

/// The page, with a place for its note (`<!-- aside -->`) and for the panel's title (`{title}`).
const SHELL: &str = include_str!("playground.html");
/// The note on the demo agent's commands.
const DEMO_NOTE: &str = include_str!("playground_demo.html");
/// The note on the agent bound, a team's own.
const AGENT_NOTE: &str = include_str!("playground_agent.html");

/// The page loads only its own script and talks only to this worker; the panel renders the
/// agent's Markdown, so images from elsewhere stay out too.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page: the demo agent's while `demo` is on, else the one of the agent bound.
pub(crate) fn page(exchange: &mut Exchange, demo: bool) -> worker::Result<Response> {
    exchange.log.answered(Disposition::Playground);
    let (note, title) = if demo {
        (DEMO_NOTE, "Demo agent")
    } else {
        (AGENT_NOTE, "Your agent")
    };
    let html = SHELL
        .replacen("<!-- aside -->", note, 1)
        .replacen("{title}", title, 1);
    let mut response = Response::from_html(html)?;
    let headers = response.headers_mut();
    headers.set("content-security-policy", CONTENT_SECURITY_POLICY)?;
    headers.set("cache-control", "no-cache")?;
    Ok(response)
}
