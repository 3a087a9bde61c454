//! base64url without padding (RFC 4648 section 5), the encoding of a JWT's segments and of a JWK's
//! numbers: decoding only, as strict as the `base64` crate's `URL_SAFE_NO_PAD` (no `=`, no other
//! character, the unused low bits of the last character zero), whose generic engine was 3 KB of
//! the wasm. The tests hold it to that crate's answers.

/// The six bits a base64url character stands for.
fn sextet(c: u8) -> Option<u32> {
    let value = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(value))
}

/// The bytes `text` encodes; `None` when it is not unpadded base64url.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    // Four characters are three bytes; a last group of three is two, of two one; of one, none
    // (not base64).
    for group in text.chunks(4) {
        let mut bits = 0u32;
        for &c in group {
            bits = bits << 6 | sextet(c)?;
        }
        match group.len() {
            4 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]),
            3 if bits & 0b11 == 0 => {
                out.extend_from_slice(&[(bits >> 10) as u8, (bits >> 2) as u8])
            }
            2 if bits & 0b1111 == 0 => out.push((bits >> 4) as u8),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
#[path = "base64url_tests.rs"]
mod tests;
