//! Tests of `word_scan`.

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
    fn starts_with_is_the_slices(
        bytes in any_bytes(),
        cut in 0usize..40,
        flip in prop::option::of((0usize..40, 1u8..=255)),
    ) {
        // A prefix of the bytes themselves (when `flip` is none or misses), or one that
        // differs in one byte: the compare must see it wherever it falls.
        let mut prefix = bytes[..cut.min(bytes.len())].to_vec();
        if let Some((at, by)) = flip {
            if let Some(b) = prefix.get_mut(at) {
                *b ^= by;
            }
        }
        prop_assert_eq!(starts_with(&bytes, &prefix), bytes.starts_with(&prefix));
        prop_assert_eq!(starts_with(&prefix, &bytes), prefix.starts_with(&bytes));
    }

    #[test]
    fn below_flags_the_first_byte_below(bytes in any_bytes(), n in 1u8..=0x80) {
        let expected = bytes.iter().position(|&b| b < n);
        prop_assert_eq!(position(&bytes, |w| below(w, n)), expected);
    }
}
