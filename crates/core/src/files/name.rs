//! What an upload is called: its media type (from `Content-Type`, held to the `FILE_TYPES`
//! allow-list) and its file name (from the `filename` query parameter), and the
//! `Content-Disposition` that gives the name back when the file is served.

/// The longest media type kept, in bytes: RFC 6838 section 4.2 allows a type and a subtype of
/// 127 characters each, with the `/`; the bound file parts of a chat body have too
/// (`docs/endpoint.md`, the bounds).
pub const MAX_MEDIA_TYPE_BYTES: usize = 255;

/// The longest file name kept, in bytes of UTF-8: the longest name of the common filesystems
/// (ext4, XFS, APFS; NTFS 255 UTF-16 units), the bound of a chat body's file part's `filename`.
pub const MAX_FILENAME_BYTES: usize = 255;

/// The essence of a `Content-Type` (`type/subtype`, lower case, its parameters dropped), when it
/// is one: two RFC 9110 tokens around a `/`, at most [`MAX_MEDIA_TYPE_BYTES`].
pub fn media_type(content_type: Option<&str>) -> Option<String> {
    let essence = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    let (kind, sub) = essence.split_once('/')?;
    let token = |s: &str| !s.is_empty() && s.bytes().all(is_token_byte);
    (token(kind) && token(sub) && essence.len() <= MAX_MEDIA_TYPE_BYTES).then_some(essence)
}

/// RFC 9110 section 5.6.2's `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The media types an upload may have (`FILE_TYPES`): exact types, and `type/*` for a whole type,
/// kept as the setting lists them (lower case, without spaces), comma-separated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeList(String);

impl TypeList {
    /// A comma-separated list of `type/subtype` or `type/*`; `None` when an entry is neither, or
    /// there is none.
    pub fn parse(text: &str) -> Option<Self> {
        let list: Vec<u8> = text
            .bytes()
            .filter(|b| *b != b' ')
            .map(|b| b.to_ascii_lowercase())
            .collect();
        let list = String::from_utf8(list).ok()?;
        let token = |s: &str| !s.is_empty() && s.bytes().all(is_token_byte);
        let valid = list.split(',').all(|entry| match entry.split_once('/') {
            Some((kind, sub)) => {
                token(kind)
                    && !kind.contains('*')
                    && (sub == "*" || token(sub) && !sub.contains('*'))
            }
            None => false,
        });
        valid.then_some(TypeList(list))
    }

    /// Whether `media_type` (an essence, as [`media_type`] gives it) is on the list.
    pub fn allows(&self, media_type: &str) -> bool {
        self.0
            .split(',')
            .any(|entry| match entry.strip_suffix('*') {
                Some(prefix) => media_type.starts_with(prefix),
                None => entry == media_type,
            })
    }
}

/// Why a `filename` cannot be kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadFilename;

/// The `filename` query parameter of an upload's URL, percent-decoded as UTF-8 (`+` is a space,
/// as `URLSearchParams` writes it): `Ok(None)` when there is none; an error when it is not 1 to
/// [`MAX_FILENAME_BYTES`] bytes of UTF-8 with no control character, `/` or `\`, nor `.` or `..`
/// (a name to show and to save, never a path).
pub fn filename_from_url(url: &str) -> Result<Option<String>, BadFilename> {
    let Some(raw) = crate::files::query_param(url, "filename") else {
        return Ok(None);
    };
    let name = percent_decoded(raw).ok_or(BadFilename)?;
    check_filename(&name)?;
    Ok(Some(name))
}

/// Whether `name` is a file's name to keep: 1 to [`MAX_FILENAME_BYTES`] bytes of UTF-8 with no
/// control character, `/` or `\`, nor `.` or `..` (a name to show and to save, never a path).
pub fn check_filename(name: &str) -> Result<(), BadFilename> {
    let bytes = name.as_bytes();
    // A control character: C0 and DEL, and C1 (U+0080 to U+009F: 0xC2 0x80..=0x9F in UTF-8).
    let control = bytes
        .iter()
        .any(|&b| b < 0x20 || b == 0x7f || b == b'/' || b == b'\\')
        || bytes
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1]));
    let valid =
        (1..=MAX_FILENAME_BYTES).contains(&bytes.len()) && !control && name != "." && name != "..";
    if valid {
        Ok(())
    } else {
        Err(BadFilename)
    }
}

/// `value` with its `%XX` escapes decoded and `+` as a space, when the bytes are UTF-8.
fn percent_decoded(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let high = hex_digit(*bytes.get(i + 1)?)?;
                let low = hex_digit(*bytes.get(i + 2)?)?;
                out.push(high << 4 | low);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The value of a hex digit (either case).
fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// A `Content-Disposition` value (RFC 6266): `disposition` (`inline` or `attachment`), with the
/// file's name when it has one as `filename*` (RFC 8187: UTF-8, percent-encoded), which every
/// browser of the last decade reads.
pub fn content_disposition(disposition: &str, filename: Option<&str>) -> String {
    let Some(name) = filename else {
        return disposition.to_owned();
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(disposition.len() + 20 + name.len() * 3);
    out.push_str(disposition);
    out.push_str("; filename*=UTF-8''");
    for byte in name.bytes() {
        // RFC 8187's `attr-char`: ALPHA / DIGIT / "!#$&+-.^_`|~".
        if byte.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
    }
    out
}

#[cfg(test)]
#[path = "name_tests.rs"]
mod tests;
