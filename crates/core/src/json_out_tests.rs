//! Tests of `json_out`.

use proptest::prelude::*;

use super::*;

#[test]
fn an_array_is_its_items_between_brackets() {
    let array = |items: &[&str]| to_string(8, |out| array(out, items.iter().copied(), string));
    assert_eq!(array(&[]), "[]");
    assert_eq!(array(&["a"]), r#"["a"]"#);
    assert_eq!(array(&["a", "b\"c"]), r#"["a","b\"c"]"#);
}

/// Strings that need no escape, every kind of escape, and text beyond ASCII.
pub(crate) fn any_text() -> impl Strategy<Value = String> {
    let chars = [
        'a', '"', '\\', '\n', '\u{1}', '\u{7f}', 'é', '\u{2028}', '😀', '\t',
    ];
    prop_oneof![
        "[a-z0-9_-]{0,12}",
        any::<String>(),
        prop::collection::vec(prop::sample::select(chars.to_vec()), 0..10)
            .prop_map(|chars| chars.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn strings_are_escaped_as_serde_escapes_them(text in any_text()) {
        let written = to_string(0, |out| string(out, &text));
        prop_assert_eq!(written, serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn numbers_are_written_as_serde_writes_them(n in any::<u64>()) {
        prop_assert_eq!(to_string(0, |out| number_field(out, b"", n)), n.to_string());
    }
}

proptest! {
    /// The word-at-a-time scan stops where the byte-by-byte one does, wherever the stop
    /// falls in a word and whatever the bytes around it (UTF-8 lead and continuation
    /// bytes, 0x7f).
    #[test]
    fn plain_len_stops_at_the_first_stop_byte(
        bytes in prop::collection::vec(
            prop_oneof![
                prop::sample::select(vec![b'a', b' ', 0x7f, 0x80, 0xc3, 0xff, 0x1f, 0x00, 0x01, 0x20, 0x21, b'"', b'\\', b'!', b'#', b']', b'[', b'\\' + 1]),
                any::<u8>(),
            ],
            0..40,
        ),
        plain_prefix in 0usize..20,
    ) {
        let mut input = vec![b'x'; plain_prefix];
        input.extend(bytes);
        let expected = input
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(input.len());
        prop_assert_eq!(plain_len(&input), expected);
    }
}
