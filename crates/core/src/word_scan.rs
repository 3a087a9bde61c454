//! Byte searches eight bytes at a time: WebAssembly compares one byte at a time otherwise, and
//! the standard library's `memchr` reads four (its word is a `usize`, 32 bits there).
//!
//! The tests of "a byte below n" and "a zero byte" on a whole word come from Sean Anderson's
//! *Bit Twiddling Hacks*. Each sets the high bit of every byte that qualifies, and may also set it
//! in bytes after the first that does (a borrow travels upwards, and only from a byte that
//! qualifies), never before it: so the lowest bit set marks the first such byte exactly.

/// `0x01` in every byte of a word.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// The high bit of every byte of a word.
const HIGH_BITS: u64 = ONES * 0x80;
/// The bytes of a word.
const WORD: usize = 8;

/// The high bit of each byte of `word` below `n` (for `n <= 0x80`), and maybe of later bytes.
pub(crate) const fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * n as u64) & !word & HIGH_BITS
}

/// The high bit of each byte of `word` equal to `byte`, and maybe of later bytes.
pub(crate) const fn equal(word: u64, byte: u8) -> u64 {
    below(word ^ (ONES * byte as u64), 1)
}

/// The position in `bytes` of the first byte that `stops` flags, eight bytes at a time: `stops`
/// answers for a word (read little-endian, so its lowest byte is the first) with [`below`] and
/// [`equal`]. `None` when no byte stops.
///
/// The last few bytes, fewer than a word, go in one word too, zeros after them: the flags of
/// those zeros lie above every real byte's, so a flag below them is the first real stop.
pub(crate) fn position(bytes: &[u8], stops: impl Fn(u64) -> u64) -> Option<usize> {
    let first = |flagged: u64| (flagged.trailing_zeros() / 8) as usize;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + WORD) {
        let Ok(chunk) = <[u8; WORD]>::try_from(chunk) else {
            break;
        };
        let flagged = stops(u64::from_le_bytes(chunk));
        if flagged != 0 {
            return Some(at + first(flagged));
        }
        at += WORD;
    }
    let rest = &bytes[at..];
    Some(first(stops(short_word(rest))))
        .filter(|&i| i < rest.len())
        .map(|i| at + i)
}

/// The word at `at` in `bytes` (little-endian), or 0 past the end.
fn word_at(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + WORD)
        .and_then(|word| <[u8; WORD]>::try_from(word).ok())
        .map_or(0, u64::from_le_bytes)
}

/// `bytes`, fewer than a word of them, as one word with zeros after them.
fn short_word(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0, |word, &b| word << 8 | u64::from(b))
}

/// Whether `bytes` begins with `prefix`, eight bytes at a time: a slice's `starts_with` with a
/// length known only at run time is a call to `memcmp`, one byte a step in WebAssembly. A
/// prefix of a word or more ends with the word that ends it, which may overlap the one before.
pub(crate) fn starts_with(bytes: &[u8], prefix: &[u8]) -> bool {
    let Some(head) = bytes.get(..prefix.len()) else {
        return false;
    };
    let Some(last) = prefix.len().checked_sub(WORD) else {
        return short_word(head) == short_word(prefix);
    };
    (0..last)
        .step_by(WORD)
        .all(|at| word_at(head, at) == word_at(prefix, at))
        && word_at(head, last) == word_at(prefix, last)
}

/// The position of the first `byte` in `bytes`, if any: where a delivery's next frame ends
/// (`core`'s `memchr` reads four bytes a step in WebAssembly).
pub(crate) fn find(bytes: &[u8], byte: u8) -> Option<usize> {
    position(bytes, |word| equal(word, byte))
}

#[cfg(test)]
#[path = "word_scan_tests.rs"]
mod tests;
