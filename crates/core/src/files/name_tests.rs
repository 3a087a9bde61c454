//! Tests of `files::name`: media types, the allow-list, file names, `Content-Disposition`.

use super::*;

#[test]
fn a_media_type_is_the_essence_of_content_type() {
    assert_eq!(media_type(Some("image/PNG")), Some("image/png".into()));
    assert_eq!(
        media_type(Some(" text/plain ; charset=utf-8")),
        Some("text/plain".into())
    );
    assert_eq!(
        media_type(Some("application/vnd.api+json")),
        Some("application/vnd.api+json".into())
    );
    for bad in [
        None,
        Some(""),
        Some("image"),
        Some("image/"),
        Some("/png"),
        Some("im age/png"),
        Some("image/png/x"),
    ] {
        assert_eq!(media_type(bad), None, "{bad:?}");
    }
    let long = format!("image/{}", "x".repeat(249));
    assert_eq!(media_type(Some(&long)).map(|t| t.len()), Some(255));
    assert_eq!(media_type(Some(&format!("{long}x"))), None);
}

#[test]
fn the_allow_list_takes_exact_types_and_whole_types() {
    let list = TypeList::parse("image/*, application/PDF,text/plain").unwrap();
    assert!(list.allows("image/png"));
    assert!(list.allows("image/svg+xml"));
    assert!(list.allows("application/pdf"));
    assert!(list.allows("text/plain"));
    assert!(!list.allows("text/html"));
    assert!(!list.allows("imagex/png"));
    for bad in [
        "",
        "image",
        "*/*",
        "image/png,",
        "image/png; q=1",
        "image/**",
    ] {
        assert_eq!(TypeList::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn a_filename_comes_from_the_query_percent_decoded() {
    let url = |q: &str| format!("https://w.example/api/sessions/s/files?{q}");
    assert_eq!(
        filename_from_url("https://w.example/api/sessions/s/files"),
        Ok(None)
    );
    assert_eq!(filename_from_url(&url("x=1")), Ok(None));
    assert_eq!(
        filename_from_url(&url("filename=cat.png")),
        Ok(Some("cat.png".into()))
    );
    assert_eq!(
        filename_from_url(&url("a=b&filename=r%C3%A9sum%C3%A9+2.pdf#frag")),
        Ok(Some("résumé 2.pdf".into()))
    );
    let longest = "é".repeat(127) + "x";
    let encoded: String = longest.bytes().map(|b| format!("%{b:02X}")).collect();
    assert_eq!(
        filename_from_url(&url(&format!("filename={encoded}"))),
        Ok(Some(longest))
    );
    for bad in [
        "filename=",
        "filename=%",
        "filename=%zz",
        "filename=%C3",
        "filename=a%2Fb",
        "filename=a%5Cb",
        "filename=a%0Ab",
        "filename=a%7Fb",
        "filename=a%C2%85b",
        "filename=.",
        "filename=..",
    ] {
        assert_eq!(filename_from_url(&url(bad)), Err(BadFilename), "{bad}");
    }
    let over = "x".repeat(256);
    assert_eq!(
        filename_from_url(&url(&format!("filename={over}"))),
        Err(BadFilename)
    );
}

#[test]
fn content_disposition_gives_the_name_both_ways() {
    assert_eq!(content_disposition("attachment", None), "attachment");
    assert_eq!(
        content_disposition("inline", Some("cat.png")),
        "inline; filename*=UTF-8''cat.png"
    );
    assert_eq!(
        content_disposition("attachment", Some("a \"b\"\\é;.svg")),
        "attachment; filename*=UTF-8''a%20%22b%22%5C%C3%A9%3B.svg"
    );
}
