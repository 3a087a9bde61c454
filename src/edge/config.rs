//! The worker's settings, read from its environment (`[vars]` and secrets) into
//! [`crate::config::Config`].

use worker::Env;

use crate::config::{Config, ConfigError};

/// Name of the Durable Object namespace binding of the SessionAgent class.
pub(crate) const AGENT_BINDING: &str = "SESSION_AGENT";

/// Name of the Rate Limiting binding; without it, no rate limit.
pub(crate) const RATE_LIMIT_BINDING: &str = "RATE_LIMITER";

/// The settings; a value that does not parse is an error (answered with a JSON 500).
pub(crate) fn load(env: &Env) -> Result<Config, ConfigError> {
    Config::from_vars(|name| {
        env.var(name)
            .map(|v| v.to_string())
            .or_else(|_| env.secret(name).map(|s| s.to_string()))
            .ok()
    })
}

/// Whether the demo agent and its routes are on (`DEMO_AGENT = "on"` in a valid config).
pub(crate) fn demo_enabled(env: &Env) -> bool {
    load(env).is_ok_and(|config| config.demo_agent)
}
