//! What every route handler works with, as one value: the request, the worker's environment and
//! its context (`waitUntil`), the settings, and the request's bookkeeping ([`Exchange`]: its id,
//! clock and log line).

use worker::{Context, Env};

use crate::config::Config;
use crate::exchange::Exchange;
use crate::inbound::incoming::RequestIn;

pub(crate) struct RouteContext<'a> {
    pub(crate) req: &'a RequestIn<'a>,
    pub(crate) env: &'a Env,
    pub(crate) ctx: &'a Context,
    pub(crate) config: &'a Config,
    pub(crate) exchange: &'a mut Exchange,
}
