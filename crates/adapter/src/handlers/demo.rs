//! The demo agent's inspection routes (only with `DEMO_AGENT = "on"`):
//! `GET /demo/sessions/:id/received` (every frame the agent got, with its time),
//! `GET /demo/sessions/:id/sent` (every frame it sent) and `GET /demo/sessions/:id/connections`
//! (every connection opened to it). Each asks the session's object. They hold every prompt of the
//! session, so they demand the chat route's credentials (the entry point checks them first,
//! whatever `AUTH_MODE` is).

use worker::Response;

use crate::context::RouteContext;
use crate::failure::Failure;
use crate::platform::errors::json_response;
use crate::platform::settings::AGENT_BINDING;
use crate::refusal::Refusal;
use crate::request_log::Disposition;

pub(crate) async fn forward(
    cx: RouteContext<'_>,
    session_id: &str,
    log: &str,
) -> Result<Response, Failure> {
    let (env, exchange) = (cx.env, cx.exchange);
    let stub = env
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
        Ok(mut response) => {
            // The object's response has immutable headers; answer with a copy the entry
            // point can add its headers to.
            let status = response.status_code();
            let body = response.text().await?;
            exchange.log.answered(Disposition::DemoLog(status));
            Ok(json_response(status, body)?)
        }
        Err(err) => {
            crate::platform::log::error("demo_log", None, &format!("{log}: {err}"));
            Err(Refusal::agent_unavailable().into())
        }
    }
}
