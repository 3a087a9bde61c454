//! JSON Web Key Sets (RFC 7517): a provider's JWKS document read into the keys this service can
//! verify with, the key a token names (its `kid`, of a type fit for its `alg`), what the edge
//! hands to WebCrypto's `importKey("jwk", …)` and `verify`, and which `JWKS_URL`s are allowed.

use serde_json::{json, Value};

use super::jwt::Alg;

/// Largest JWKS document read, in bytes. A provider's set holds a few keys of about 0.5 KB each
/// (Auth0's, Clerk's, Cognito's are 1–4 KB); 64 KiB leaves room for a hundred RSA keys.
pub const MAX_JWKS_BYTES: usize = 64 * 1024;

/// Fewest bytes in an RSA modulus accepted: 2048 bits, the least RFC 7518 section 3.3 allows
/// for RS256.
const MIN_RSA_MODULUS_BYTES: usize = 256;

/// Bytes of a P-256 coordinate (`x`, `y`).
const P256_COORDINATE_BYTES: usize = 32;

/// One verification key of the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwk {
    pub kid: String,
    /// The algorithm its type serves: RS256 for `RSA`, ES256 for `EC` on `P-256`.
    pub alg: Alg,
    material: Material,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Material {
    Rsa { n: String, e: String },
    P256 { x: String, y: String },
}

impl Jwk {
    /// The public key as the minimal JWK that `importKey("jwk", …)` reads: the key type and its
    /// numbers only (`alg`, `use` and `key_ops` were checked here; WebCrypto would refuse an
    /// `alg` spelled otherwise than it expects).
    pub fn import_json(&self) -> String {
        match &self.material {
            Material::Rsa { n, e } => json!({"kty": "RSA", "n": n, "e": e}),
            Material::P256 { x, y } => json!({"kty": "EC", "crv": "P-256", "x": x, "y": y}),
        }
        .to_string()
    }
}

/// The WebCrypto algorithm of `importKey` for a key of `alg`.
pub fn import_algorithm(alg: Alg) -> &'static str {
    match alg {
        Alg::Es256 => r#"{"name":"ECDSA","namedCurve":"P-256"}"#,
        _ => r#"{"name":"RSASSA-PKCS1-v1_5","hash":"SHA-256"}"#,
    }
}

/// The WebCrypto algorithm of `verify` for a signature of `alg` (an ES256 JWS signature is the
/// raw `r || s` that ECDSA `verify` takes).
pub fn verify_algorithm(alg: Alg) -> &'static str {
    match alg {
        Alg::Es256 => r#"{"name":"ECDSA","hash":"SHA-256"}"#,
        _ => r#"{"name":"RSASSA-PKCS1-v1_5"}"#,
    }
}

/// The keys of a JWKS that this service can verify with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeySet {
    keys: Vec<Jwk>,
}

impl KeySet {
    /// Reads a JWKS document: `{"keys": [...]}`. Keys this service cannot use are left out (no
    /// `kid`; `use` other than `sig`; `key_ops` without `verify`; another type or curve; an
    /// `alg` that does not fit the type; an RSA modulus under 2048 bits; numbers that are not
    /// base64url); a document of another shape is an error.
    pub fn parse(document: &[u8]) -> Result<Self, &'static str> {
        if document.len() > MAX_JWKS_BYTES {
            return Err("larger than 64 KiB");
        }
        // Through `&str`: the wasm already holds serde_json's `Value` reader for text.
        let document = std::str::from_utf8(document).map_err(|_| "not JSON")?;
        let document: Value = serde_json::from_str(document).map_err(|_| "not JSON")?;
        let keys = document
            .get("keys")
            .and_then(Value::as_array)
            .ok_or("no `keys` array")?;
        Ok(KeySet {
            keys: keys.iter().filter_map(usable_key).collect(),
        })
    }

    /// The key named `kid` for a token signed with `alg`.
    pub fn find(&self, kid: &str, alg: Alg) -> Option<&Jwk> {
        self.keys
            .iter()
            .find(|key| key.kid == kid && key.alg == alg)
    }

    /// How many usable keys the set has.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set has no usable key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

fn usable_key(key: &Value) -> Option<Jwk> {
    let text = |name: &str| key.get(name).and_then(Value::as_str);
    let kid = text("kid")?.to_owned();
    if key.get("use").is_some_and(|u| *u != "sig") {
        return None;
    }
    if let Some(ops) = key.get("key_ops") {
        let ops = ops.as_array()?;
        if !ops.iter().any(|op| *op == "verify") {
            return None;
        }
    }
    let (alg, material) = match (text("kty")?, text("crv")) {
        ("RSA", _) => {
            let (n, e) = (text("n")?, text("e")?);
            let modulus = decoded_len(n)?;
            (modulus >= MIN_RSA_MODULUS_BYTES && decoded_len(e)? > 0).then_some(())?;
            let material = Material::Rsa {
                n: n.to_owned(),
                e: e.to_owned(),
            };
            (Alg::Rs256, material)
        }
        ("EC", Some("P-256")) => {
            let (x, y) = (text("x")?, text("y")?);
            (decoded_len(x)? == P256_COORDINATE_BYTES && decoded_len(y)? == P256_COORDINATE_BYTES)
                .then_some(())?;
            let material = Material::P256 {
                x: x.to_owned(),
                y: y.to_owned(),
            };
            (Alg::Es256, material)
        }
        _ => return None,
    };
    if key.get("alg").is_some_and(|a| *a != alg.name()) {
        return None;
    }
    Some(Jwk { kid, alg, material })
}

/// The length of base64url `text` once decoded; `None` when it is not base64url.
fn decoded_len(text: &str) -> Option<usize> {
    super::base64url::decode(text).map(|bytes| bytes.len())
}

/// Whether `url` may be the `JWKS_URL`: `https:` with a host, or, for local tests, `http:` to
/// this machine (`127.0.0.1`, `localhost`, `[::1]`). A key set fetched over plain HTTP from
/// elsewhere could be swapped on the way, and then anyone could sign tokens.
pub fn allowed_url(url: &str) -> bool {
    if url.bytes().any(|b| !b.is_ascii_graphic()) {
        return false;
    }
    let scheme_rest = |scheme: &str| {
        url.get(..scheme.len())
            .filter(|s| s.eq_ignore_ascii_case(scheme))
            .map(|_| &url[scheme.len()..])
    };
    if let Some(rest) = scheme_rest("https://") {
        return host(rest).is_some_and(|host| !host.is_empty());
    }
    if let Some(rest) = scheme_rest("http://") {
        return host(rest).is_some_and(|host| {
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .any(|local| host.eq_ignore_ascii_case(local))
        });
    }
    false
}

/// The host of an URL's authority (`rest` is what follows `scheme://`), without its port;
/// `None` when the authority has user information (`user@host`), which could hide the host.
fn host(rest: &str) -> Option<&str> {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return None;
    }
    let host = match authority.find(']') {
        Some(end) if authority.starts_with('[') => &authority[..=end],
        _ => authority.split(':').next().unwrap_or(""),
    };
    // What may follow the host: nothing, or a port.
    let port = &authority[host.len()..];
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok.then_some(host)
}

#[cfg(test)]
#[path = "jwks_tests.rs"]
mod tests;
