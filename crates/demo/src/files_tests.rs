use super::*;

fn file(url: &str, name: Option<&str>) -> Attachment {
    Attachment {
        media_type: "image/png".into(),
        url: url.into(),
        filename: name.map(str::to_owned),
        size: None,
    }
}

#[test]
fn the_bytes_are_in_the_bucket_in_the_url_or_elsewhere() {
    let id = "0123456789abcdef0123456789abcdef";
    let ours = file(
        &format!("http://127.0.0.1:8787/api/sessions/s1/files/{id}?exp=1&sig=ab"),
        None,
    );
    assert_eq!(
        source_of(&ours, "s1"),
        Source::Bucket(format!("sessions/s1/files/{id}"))
    );
    assert_eq!(source_of(&ours, "s2"), Source::Elsewhere);
    assert_eq!(
        source_of(&file("data:image/png;base64,AAEC", None), "s1"),
        Source::Inline(vec![0, 1, 2])
    );
    assert_eq!(
        source_of(&file("https://example.com/a.png", None), "s1"),
        Source::Elsewhere
    );
}

#[test]
fn a_line_names_the_file_and_its_digest() {
    // SHA-256("abc") = ba7816bf8f01cfea…
    assert_eq!(
        line(&file("x", Some("a.png")), Some(b"abc")),
        "a.png image/png 3 bytes sha256 ba7816bf8f01cfea, the prompt gave no size"
    );
    let sized = Attachment {
        size: Some(3),
        ..file("x", None)
    };
    assert_eq!(
        line(&sized, None),
        "(no name) image/png not read, the prompt said 3 bytes"
    );
}
