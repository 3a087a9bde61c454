//! Base64 decoding (RFC 4648), the one decoder of the worker's two uses: a JWT's segments and a
//! JWK's numbers in base64url without padding, read strictly (section 5: no `=`, the unused low
//! bits of the last character zero, as the `base64` crate's `URL_SAFE_NO_PAD`, whose generic
//! engine was 3 KB of the wasm), and a message's `data:` URL file in the standard alphabet, read
//! as browsers' `atob` reads it (section 4: its `=` padding optional, the unused bits ignored).

/// Which of RFC 4648's two alphabets, and how strictly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// Section 5, `-` and `_`, no padding, the unused bits zero.
    UrlStrict,
    /// Section 4, `+` and `/`, the padding optional, the unused bits ignored.
    StandardLenient,
}

/// The six bits character `c` stands for in `flavor`'s alphabet.
fn sextet(c: u8, flavor: Flavor) -> Option<u32> {
    let value = match (c, flavor) {
        (b'A'..=b'Z', _) => c - b'A',
        (b'a'..=b'z', _) => c - b'a' + 26,
        (b'0'..=b'9', _) => c - b'0' + 52,
        (b'-', Flavor::UrlStrict) | (b'+', Flavor::StandardLenient) => 62,
        (b'_', Flavor::UrlStrict) | (b'/', Flavor::StandardLenient) => 63,
        _ => return None,
    };
    Some(u32::from(value))
}

/// The bytes `text` encodes in `flavor`; `None` when it is not such base64.
pub fn decode(text: &str, flavor: Flavor) -> Option<Vec<u8>> {
    let mut text = text.as_bytes();
    if flavor == Flavor::StandardLenient {
        text = text
            .strip_suffix(b"==")
            .or_else(|| text.strip_suffix(b"="))
            .unwrap_or(text);
    }
    let strict = flavor == Flavor::UrlStrict;
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    // Four characters are three bytes; a last group of three is two, of two one; of one, none
    // (not base64).
    for group in text.chunks(4) {
        let mut bits = 0u32;
        for &c in group {
            bits = bits << 6 | sextet(c, flavor)?;
        }
        match group.len() {
            4 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]),
            3 if !strict || bits & 0b11 == 0 => {
                out.extend_from_slice(&[(bits >> 10) as u8, (bits >> 2) as u8])
            }
            2 if !strict || bits & 0b1111 == 0 => out.push((bits >> 4) as u8),
            _ => return None,
        }
    }
    Some(out)
}
