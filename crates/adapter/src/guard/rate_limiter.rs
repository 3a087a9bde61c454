//! Per-caller rate limiting with Cloudflare's Rate Limiting binding `RATE_LIMITER`, where it is
//! configured (`[[ratelimits]]` in wrangler.toml); without it, no limit. The binding counts: its
//! `limit({ key })` answers `{ success }` for the caller's key ([`crate::rate_limit`]).
//!
//! The binding is reached through its documented method only: workers-rs' `Env::rate_limiter`
//! also checks the JS class's name, which has changed between releases (`RateLimiter`,
//! `Ratelimit`), and a name that does not match would turn the limit into a 500 for everyone.

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::Env;

use crate::config::Config;
use crate::inbound::incoming::RequestIn;
use crate::platform::bindings::OptionalBinding;
use crate::platform::promise::settled;
use crate::platform::settings::RATE_LIMIT_BINDING;
use crate::rate_limit::{caller_key, RateLimited};
use crate::refusal::Refusal;
use crate::request_head::Field;

#[wasm_bindgen]
extern "C" {
    /// The binding: `limit(options: { key: string }): Promise<{ success: boolean }>`.
    type RateLimit;
    #[wasm_bindgen(method, catch)]
    fn limit(this: &RateLimit, options: &Object) -> Result<Promise, JsValue>;
}

thread_local! {
    static BINDING: OptionalBinding = const { OptionalBinding::new(RATE_LIMIT_BINDING) };
}

/// The `RATE_LIMITER` binding, when one is configured.
pub(crate) fn binding(env: &Env) -> Option<JsValue> {
    BINDING.with(|binding| binding.get(env))
}

/// `Ok` when the caller (`user_id`, else the client's IP: [`caller_key`]) is within its budget by
/// `binding` ([`binding`]); else the answer: 429
/// `rate_limited` with `Retry-After`, or 500 `misconfigured` for a `RATE_LIMITER` that is not a
/// Rate Limiting binding. A binding that fails is logged and lets the request through: the limit
/// protects the agent's capacity, it is not a credential.
pub(crate) async fn check(
    binding: JsValue,
    req: &RequestIn<'_>,
    config: &Config,
    user_id: Option<&str>,
) -> Result<(), Refusal> {
    let has_limit =
        Reflect::get(&binding, &JsValue::from_str("limit")).is_ok_and(|limit| limit.is_function());
    if !has_limit {
        let why = format!("{RATE_LIMIT_BINDING} is not a Rate Limiting binding");
        crate::platform::log::error("settings", None, &why);
        return Err(Refusal::misconfigured());
    }
    let key = caller_key(user_id, req.header(Field::ClientIp));
    match within_budget(binding.unchecked_ref(), &key).await {
        Ok(true) => Ok(()),
        Ok(false) => {
            let limited = RateLimited {
                retry_after_secs: config.rate_limit_period_secs,
            };
            Err(limited.into())
        }
        Err(err) => {
            crate::platform::log::error("rate_limiter", None, &format!("{err:?}"));
            Ok(())
        }
    }
}

async fn within_budget(binding: &RateLimit, key: &str) -> Result<bool, JsValue> {
    let options = Object::new();
    Reflect::set(&options, &JsValue::from_str("key"), &JsValue::from_str(key))?;
    let outcome = settled(&binding.limit(&options)?).await?;
    // Only an explicit `success: false` refuses.
    Ok(Reflect::get(&outcome, &JsValue::from_str("success"))?.as_bool() != Some(false))
}
