//! HS256 tokens at the edge: the HMAC-SHA-256 signature checked with the platform's WebCrypto
//! (`crypto.subtle.importKey("raw", …)` and `crypto.subtle.verify`: native and constant-time, and
//! no hash code in the wasm), as [`super::jwks`] checks RS256 and ES256.

use js_sys::{Array, Object, Uint8Array, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{CryptoKey, WorkerGlobalScope};
use worker::console_error;

use crate::auth::{AuthError, SecretToken};

/// The WebCrypto algorithm of HS256 (RFC 7518 section 3.2), for the key's import and the check.
const HMAC_SHA256: &str = r#"{"name":"HMAC","hash":"SHA-256"}"#;

/// `Ok` when `token`'s signature is the HMAC of its signed part with its secret, else the
/// refusal (401).
pub(crate) async fn verify(token: &SecretToken<'_>) -> Result<(), AuthError> {
    match signature_valid(token).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(AuthError::Invalid("bad signature")),
        Err(err) => {
            // Not expected: WebCrypto takes any non-empty secret as an HMAC key.
            console_error!("hs256: WebCrypto refused the secret: {err:?}");
            Err(AuthError::Invalid("its key cannot be used"))
        }
    }
}

async fn signature_valid(token: &SecretToken<'_>) -> Result<bool, JsValue> {
    let algorithm: Object = JSON::parse(HMAC_SHA256)?.unchecked_into();
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let subtle = scope.crypto()?.subtle();
    let import = subtle.import_key_with_object(
        "raw",
        &Uint8Array::from(token.secret),
        &algorithm,
        false,
        &Array::of1(&JsValue::from_str("verify")),
    )?;
    let key: CryptoKey = JsFuture::from(import).await?.unchecked_into();
    let verified = subtle.verify_with_object_and_u8_array_and_u8_array(
        &algorithm,
        &key,
        &token.token.signature,
        token.token.signed_part(),
    )?;
    Ok(JsFuture::from(verified).await?.as_bool() == Some(true))
}
