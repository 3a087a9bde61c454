//! A JWT's signature checked with the platform's WebCrypto (`crypto.subtle`: native and
//! constant-time, and no hash, HMAC or RSA code in the wasm): the key imported for `verify`
//! only, then the check. [`crate::guard::hs256`] gives it the HS256 secret, [`crate::guard::jwks_cache`] a JWKS key.

use js_sys::{Array, Object, Uint8Array, JSON};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CryptoKey, WorkerGlobalScope};

use crate::auth::jwt::Token;
use crate::auth::AuthError;
use crate::platform::promise::settled;

/// The key, as `crypto.subtle.importKey` takes it.
pub(crate) enum KeyData<'a> {
    /// `"raw"`: the key's bytes (an HMAC secret).
    Raw(&'a [u8]),
    /// `"jwk"`: a JSON Web Key, as JSON.
    Jwk(&'a str),
}

/// What a signature check asks of WebCrypto: the key, and the algorithms (WebCrypto's JSON
/// objects) to import it with and to verify with.
pub(crate) struct Check<'a> {
    pub(crate) key: KeyData<'a>,
    pub(crate) import_algorithm: &'a str,
    pub(crate) verify_algorithm: &'a str,
}

/// `Ok` when `token`'s signature signs its signed part under the check's key; a bad signature
/// is refused (401). A key WebCrypto will not take is logged with `context` and refused as
/// unusable.
pub(crate) async fn verify(
    check: Check<'_>,
    token: &Token<'_>,
    context: &str,
) -> Result<(), AuthError> {
    match signature_valid(check, &token.signature, token.signed_part()).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(AuthError::Invalid("bad signature")),
        Err(err) => {
            let why = format!("{context}: WebCrypto refused the key: {err:?}");
            crate::platform::log::error("webcrypto", None, &why);
            Err(AuthError::Invalid("its key cannot be used"))
        }
    }
}

async fn signature_valid(check: Check<'_>, signature: &[u8], data: &[u8]) -> Result<bool, JsValue> {
    let object = |json: &str| JSON::parse(json).map(JsCast::unchecked_into::<Object>);
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let subtle = scope.crypto()?.subtle();
    let (format, key_data): (&str, Object) = match check.key {
        KeyData::Raw(bytes) => ("raw", Uint8Array::from(bytes).into()),
        KeyData::Jwk(json) => ("jwk", object(json)?),
    };
    let import = subtle.import_key_with_object(
        format,
        &key_data,
        &object(check.import_algorithm)?,
        false,
        &Array::of1(&JsValue::from_str("verify")),
    )?;
    let key: CryptoKey = settled(&import).await?.unchecked_into();
    let verified = subtle.verify_with_object_and_u8_array_and_u8_array(
        &object(check.verify_algorithm)?,
        &key,
        signature,
        data,
    )?;
    Ok(settled(&verified).await?.as_bool() == Some(true))
}
