//! The worker's settings, read from its environment (`[vars]` and secrets) into
//! [`crate::config::Config`].

use std::cell::OnceCell;
use std::rc::Rc;

use worker::Env;

use crate::config::{Config, ConfigError};
use crate::log;

/// Name of the Durable Object namespace binding of the SessionAgent class.
pub const AGENT_BINDING: &str = "SESSION_AGENT";

/// Name of the Rate Limiting binding; without it, no rate limit.
pub const RATE_LIMIT_BINDING: &str = "RATE_LIMITER";

/// Name of the Analytics Engine dataset binding that receives a data point per turn; without it,
/// the turn's record is a log line only (docs/operations.md).
pub const ANALYTICS_BINDING: &str = "TURN_ANALYTICS";

/// Name of the R2 bucket binding of the session's files (docs/files.md); without it, the files
/// routes answer `501 files_not_configured`.
pub const FILES_BINDING: &str = "FILES";

/// Name of the Durable Object namespace binding of the conversations' index (`SessionIndex`, one
/// object a user: docs/sessions.md, "Your conversations"); without it, the conversations routes
/// answer `501 index_not_configured` and turns are not listed.
pub const INDEX_BINDING: &str = "SESSION_INDEX";

thread_local! {
    /// The settings, read once per isolate: an isolate runs one version of the worker, whose
    /// variables and secrets do not change while it lives.
    static SETTINGS: OnceCell<Rc<Result<Config, ConfigError>>> = const { OnceCell::new() };
}

/// The settings; a value that does not parse is an error (answered with a JSON 500). Read from
/// `env` on the isolate's first request, then kept; that read writes one line to the log: the
/// auth mode the worker runs in, or why it cannot run (which setting is missing or wrong).
pub fn load(env: &Env) -> Rc<Result<Config, ConfigError>> {
    SETTINGS.with(|settings| {
        Rc::clone(settings.get_or_init(|| {
            let read = read(env);
            match &read {
                Ok(config) => log::info(
                    "settings",
                    None,
                    &format!("AUTH_MODE {}", config.auth.name()),
                ),
                Err(err) => log::error("settings", None, &err.0),
            }
            Rc::new(read)
        }))
    })
}

fn read(env: &Env) -> Result<Config, ConfigError> {
    Config::from_vars(
        |name| {
            env.var(name)
                .map(|v| v.to_string())
                .or_else(|_| env.secret(name).map(|s| s.to_string()))
                .ok()
        },
        cfg!(feature = "demo"),
    )
}

/// Whether the demo agent and its routes are on (`DEMO_AGENT = "on"` in a valid config).
#[cfg(feature = "demo")]
pub fn demo_enabled(env: &Env) -> bool {
    load(env)
        .as_ref()
        .as_ref()
        .is_ok_and(|config| config.demo_agent)
}
