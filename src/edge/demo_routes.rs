//! The demo agent's inspection routes (only with `DEMO_AGENT = "on"`):
//! `GET /demo/sessions/:id/received` (every frame the agent got, with its time) and
//! `GET /demo/sessions/:id/sent` (every frame it sent). Both ask the session's object.

use worker::{console_error, Context, Method, Request, Response, RouteContext};

use super::config::{demo_enabled, AGENT_BINDING};
use super::errors::{json_error, method_not_allowed, not_found};

pub(crate) async fn received(
    req: Request,
    route: RouteContext<Context>,
) -> worker::Result<Response> {
    forward(req, route, "received").await
}

pub(crate) async fn sent(req: Request, route: RouteContext<Context>) -> worker::Result<Response> {
    forward(req, route, "sent").await
}

async fn forward(
    req: Request,
    route: RouteContext<Context>,
    log: &str,
) -> worker::Result<Response> {
    if !demo_enabled(&route.env) {
        return not_found();
    }
    if req.method() != Method::Get {
        return method_not_allowed("GET");
    }
    let Some(session_id) = route.param("id") else {
        return not_found();
    };
    let stub = route
        .env
        .durable_object(AGENT_BINDING)
        .and_then(|ns| ns.id_from_name(session_id)?.get_stub());
    let answer = match stub {
        Ok(stub) => {
            stub.fetch_with_str(&format!("https://demo/demo/{log}"))
                .await
        }
        Err(err) => Err(err),
    };
    match answer {
        Ok(response) => Ok(response),
        Err(err) => {
            console_error!("demo log {log}: {err}");
            json_error(
                503,
                "agent_unavailable",
                "The agent is unavailable right now. Try again.",
            )
        }
    }
}
