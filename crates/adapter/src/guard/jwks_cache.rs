//! RS256 and ES256 tokens at the edge: the isolate's JWKS cache (isolates are single-threaded,
//! so one per isolate, shared by its requests: plain data, never a promise, which belongs to
//! the request that made it), the JWKS fetch, and the signature check with the platform's
//! WebCrypto ([`crate::guard::webcrypto`]: native and constant-time, and no RSA code in the wasm). When to
//! fetch, and when to wait for another request's fetch, is the pure core's call
//! ([`crate::auth::key_cache`]).

use std::cell::RefCell;
use std::time::Duration;

use futures::future::{select, Either};
use wasm_bindgen::JsCast;
use web_sys::WorkerGlobalScope;
use worker::Delay;

use crate::auth::jwks::{self, KeySet, MAX_JWKS_BYTES};
use crate::auth::key_cache::{Decision, KeyCache, FETCH_TIMEOUT_SECS};
use crate::auth::{AuthError, KeyedToken};
use crate::guard::webcrypto::{self, Check, KeyData};
use crate::inbound::body::read_capped;
use crate::platform::clock::now_ms;
use crate::platform::promise::settled;

/// How often a request waiting for another's fetch looks at the cache again, in ms: a JWKS
/// answer takes tens to hundreds of ms, so the wait adds little, and costs a timer per look.
const WAIT_STEP_MS: u64 = 20;

thread_local! {
    static CACHE: RefCell<KeyCache> = RefCell::new(KeyCache::default());
}

/// Verifies `token`'s signature with the JWKS key it names: `Ok` when it is valid, else the
/// refusal (401 for a bad signature or an unknown key, 503 when the set cannot be had).
pub(crate) async fn verify(token: &KeyedToken<'_>) -> Result<(), AuthError> {
    let alg = token.token.alg;
    let mut fetched = false;
    let key = loop {
        let now = now_ms();
        let decision = CACHE.with(|cache| {
            let cache = cache.borrow();
            if fetched {
                cache.decide_after_fetch(&token.kid, alg, now)
            } else {
                cache.decide(&token.kid, alg, now)
            }
        });
        match decision {
            Decision::Use(key) => break key,
            Decision::Refuse(err) => return Err(err),
            Decision::Wait => Delay::from(Duration::from_millis(WAIT_STEP_MS)).await,
            Decision::Fetch(reason) => {
                CACHE.with(|cache| cache.borrow_mut().begin_fetch(reason, now));
                let answer = fetch_keys(token.jwks_url).await;
                let now = now_ms();
                CACHE.with(|cache| {
                    let mut cache = cache.borrow_mut();
                    match answer {
                        Some((keys, cache_control)) => {
                            cache.record(Some((keys, cache_control.as_deref())), now)
                        }
                        None => cache.record(None, now),
                    }
                });
                fetched = true;
            }
        }
    };
    let import_json = key.import_json();
    let check = Check {
        key: KeyData::Jwk(&import_json),
        import_algorithm: jwks::import_algorithm(key.alg),
        verify_algorithm: jwks::verify_algorithm(key.alg),
    };
    // A key the provider published that WebCrypto refuses: nothing can be verified with it.
    webcrypto::verify(check, &token.token, "jwks").await
}

/// The set at `url` and its `Cache-Control`, or `None` (logged) when it cannot be had in time.
async fn fetch_keys(url: &str) -> Option<(KeySet, Option<String>)> {
    let timeout = Delay::from(Duration::from_secs(FETCH_TIMEOUT_SECS));
    match select(Box::pin(download(url)), Box::pin(timeout)).await {
        Either::Left((Ok((body, cache_control)), _)) => match KeySet::parse(&body) {
            Ok(keys) => Some((keys, cache_control)),
            Err(why) => {
                let why = format!("the answer is not a key set: {why}");
                crate::platform::log::error("jwks", None, &why);
                None
            }
        },
        Either::Left((Err(why), _)) => {
            crate::platform::log::error("jwks", None, &why.to_string());
            None
        }
        Either::Right(_) => {
            let why = format!("no answer within {FETCH_TIMEOUT_SECS} s");
            crate::platform::log::error("jwks", None, &why);
            None
        }
    }
}

/// The body and `Cache-Control` of a 2xx answer from `url`.
async fn download(url: &str) -> Result<(Vec<u8>, Option<String>), String> {
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let response: web_sys::Response = settled(&scope.fetch_with_str(url))
        .await
        .map_err(|err| format!("the fetch failed: {err:?}"))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("status {}", response.status()));
    }
    let headers = response.headers();
    let declared = headers.get("content-length").ok().flatten();
    if declared
        .and_then(|len| len.trim().parse::<usize>().ok())
        .is_some_and(|len| len > MAX_JWKS_BYTES)
    {
        return Err("the answer is larger than 64 KiB".into());
    }
    let cache_control = headers.get("cache-control").ok().flatten();
    let Some(body) = response.body() else {
        return Ok((Vec::new(), cache_control));
    };
    // Read as it comes and given up past the cap: an answer that declares no length (or declares
    // too little) is not held whole before it is refused.
    let read = read_capped(body, MAX_JWKS_BYTES, MAX_JWKS_BYTES).await;
    if read.failed {
        return Err("the body cannot be read".into());
    }
    if read.over(MAX_JWKS_BYTES) {
        return Err("the answer is larger than 64 KiB".into());
    }
    Ok((read.kept, cache_control))
}
