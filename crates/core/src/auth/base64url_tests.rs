//! Tests of `auth::base64url`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::decode;

#[test]
fn decodes_as_the_base64_crate_does() {
    for text in [
        "",
        "AA",
        "AAA",
        "AAAA",
        "A",
        "AAAAA",
        "AB",
        "AAB",
        "_-_-",
        "YWJj",
        "YWI",
        "YQ",
        "YQ==",
        "YQ=",
        "Y Q",
        "+/",
        "eyJhbGciOiJIUzI1NiJ9",
    ] {
        assert_eq!(decode(text), URL_SAFE_NO_PAD.decode(text).ok(), "{text:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    #[test]
    fn round_trips(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80)) {
        proptest::prop_assert_eq!(decode(&URL_SAFE_NO_PAD.encode(&bytes)), Some(bytes));
    }

    #[test]
    fn refuses_what_the_crate_refuses(text in "[A-Za-z0-9_=+/. -]{0,12}") {
        proptest::prop_assert_eq!(decode(&text), URL_SAFE_NO_PAD.decode(&text).ok());
    }
}
