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
    let word = rest
        .iter()
        .rev()
        .fold(0, |word, &b| word << 8 | u64::from(b));
    Some(first(stops(word)))
        .filter(|&i| i < rest.len())
        .map(|i| at + i)
}

/// The position of the first `byte` in `bytes`, if any.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the pump's (wasm32-only) and tests'
pub(crate) fn find(bytes: &[u8], byte: u8) -> Option<usize> {
    position(bytes, |word| equal(word, byte))
}

/// The pieces of `text` between each `separator`, an ASCII byte, as `str::split` gives them: the
/// frames of one delivery of the pump (`edge::pump`, wasm32-only; natively, the tests').
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn split(text: &str, separator: u8) -> Split<'_> {
    debug_assert!(separator.is_ascii());
    Split {
        rest: Some(text),
        separator,
    }
}

/// The iterator of [`split`].
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct Split<'a> {
    /// What is left to split; `None` after the last piece.
    rest: Option<&'a str>,
    separator: u8,
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        // An ASCII byte is a character of its own: both sides of it are character boundaries.
        let pieces = find(rest.as_bytes(), self.separator)
            .and_then(|at| Some((rest.get(..at)?, rest.get(at + 1..)?)));
        match pieces {
            Some((piece, after)) => {
                self.rest = Some(after);
                Some(piece)
            }
            None => self.rest.take(),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Bytes around the edges of the tests: the byte sought, its neighbours, zero, the high bit.
    fn any_bytes() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop_oneof![
                prop::sample::select(vec![
                    0x00, 0x01, 0x1d, 0x1e, 0x1f, 0x20, 0x7f, 0x80, 0x9e, 0xff
                ]),
                any::<u8>(),
            ],
            0..40,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn find_is_the_first_position(
            bytes in any_bytes(),
            prefix in 0usize..20,
            byte in prop::sample::select(vec![0x00, 0x1e, 0x22, 0x5c, 0x80, 0xff]),
        ) {
            let mut input = vec![b'x'; prefix];
            input.extend(bytes);
            prop_assert_eq!(find(&input, byte), input.iter().position(|&b| b == byte));
        }

        #[test]
        fn split_is_str_split(
            pieces in prop::collection::vec(
                prop_oneof!["[a-z\u{1e}]{0,12}", any::<String>(), "[\u{1e}\u{1d}\u{1f}\u{9e}é😀]{0,6}"],
                0..6,
            ),
        ) {
            let text = pieces.join("\u{1e}");
            let ours: Vec<&str> = split(&text, 0x1e).collect();
            let std: Vec<&str> = text.split('\u{1e}').collect();
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn below_flags_the_first_byte_below(bytes in any_bytes(), n in 1u8..=0x80) {
            let expected = bytes.iter().position(|&b| b < n);
            prop_assert_eq!(position(&bytes, |w| below(w, n)), expected);
        }
    }
}
