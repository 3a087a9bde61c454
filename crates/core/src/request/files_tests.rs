//! Tests of `request::files`.

use super::*;

#[test]
fn https_with_a_public_host_and_base64_data_pass() {
    for url in [
        "https://files.example/a.png",
        "hTtPs://files.example",
        "https://files.example:8443/a?b=c#d",
        "https://8.8.8.8/x",
        "https://[2606:4700::1111]:443/x",
        "https://files.example?x",
        "https://files.example#x",
        "data:image/png;base64,iVBORw0KGgo=",
        "DATA:image/png;BASE64,AA==",
        "data:text/plain;charset=utf-8;base64,aGk=",
        "data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,UEs=",
        "data:image/svg+xml;base64,",
    ] {
        assert_eq!(check_url(url), Ok(()), "{url}");
    }
}

#[test]
fn each_refused_url_says_why() {
    let host = UrlFault::Host;
    let cases = [
        ("http://files.example/a", UrlFault::Scheme),
        ("javascript:alert(1)", UrlFault::Scheme),
        ("file:///etc/passwd", UrlFault::Scheme),
        ("a.png", UrlFault::Scheme),
        ("", UrlFault::Scheme),
        ("https:", UrlFault::NoAuthority),
        ("https:javascript:alert(1)", UrlFault::NoAuthority),
        ("https:/files.example", UrlFault::NoAuthority),
        ("https:files.example", UrlFault::NoAuthority),
        ("https://", host(HostFault::Empty)),
        ("https:///a", host(HostFault::Empty)),
        ("https://:443/a", host(HostFault::Empty)),
        ("https://user:pw@files.example/", UrlFault::UserInfo),
        ("https://files.example@169.254.169.254/", UrlFault::UserInfo),
        ("https://files.example:/", UrlFault::Port),
        ("https://files.example:0/", UrlFault::Port),
        ("https://files.example:65536/", UrlFault::Port),
        ("https://files.example:x/", UrlFault::Port),
        (
            "https://169.254.169.254/latest/meta-data/",
            host(HostFault::NotPublic),
        ),
        ("https://127.0.0.1:8787/api", host(HostFault::NotPublic)),
        ("https://[::1]:8787/", host(HostFault::NotPublic)),
        ("https://[::ffff:10.0.0.1]/", host(HostFault::NotPublic)),
        ("https://localhost/", host(HostFault::Localhost)),
        ("https://api.localhost:8787/", host(HostFault::Localhost)),
        ("https://2130706433/", host(HostFault::NumberNotDotted)),
        (
            "https://%6c%6f%63%61%6c%68%6f%73%74/",
            host(HostFault::Character),
        ),
        (" https://files.example", UrlFault::Spacing),
        ("https://files.example/a b", UrlFault::Spacing),
        ("ht\ttps://files.example", UrlFault::Spacing),
        ("https://127.0.0.\n1/", UrlFault::Spacing),
        ("https:\\\\127.0.0.1\\x", UrlFault::Spacing),
        (
            "DATA:text/html,<script>alert(1)</script>",
            UrlFault::DataHeader,
        ),
        ("data:,hi", UrlFault::DataHeader),
        ("data:;base64,aGk=", UrlFault::DataHeader),
        ("data:text/plain,a:b", UrlFault::DataHeader),
        ("data:base64,aGk=", UrlFault::DataHeader),
        ("data:text;base64,aGk=", UrlFault::DataHeader),
        ("data:image/png;base64", UrlFault::DataHeader),
        ("data:é/png;base64,AA==", UrlFault::DataHeader),
        (
            "data:image/png;base64,<script>",
            UrlFault::DataPayload {
                at: 0,
                byte: b'<',
                of: 8,
            },
        ),
        (
            "data:image/png;base64,AA%3D%3D",
            UrlFault::DataPayload {
                at: 2,
                byte: b'%',
                of: 8,
            },
        ),
    ];
    for (url, fault) in cases {
        assert_eq!(check_url(url), Err(fault), "{url:?}");
    }
    assert_eq!(
        FileFault::Url(host(HostFault::NotPublic)).says(),
        "its `url` has a host that is an IP address that is not public (private, loopback, link-local, shared, reserved or the like): the agent's own network"
    );
}

#[test]
fn media_types_and_filenames_are_bounded() {
    let url = "https://files.example/a";
    let longest = format!("{}/{}", "a".repeat(127), "b".repeat(127));
    assert_eq!(check_file(&longest, url, Some(&"n".repeat(255))), Ok(()));
    assert_eq!(
        check_file("", url, None),
        Ok(()),
        "a browser's File of no known type"
    );
    let over = format!("{longest}x");
    assert_eq!(
        check_file(&over, url, None),
        Err(FileFault::MediaTypeTooLong { bytes: 256 })
    );
    // 128 `é`: 256 bytes.
    assert_eq!(
        check_file("image/png", url, Some(&"é".repeat(128))),
        Err(FileFault::FilenameTooLong { bytes: 256 })
    );
    assert_eq!(
        FileFault::FilenameTooLong { bytes: 256 }.says(),
        "its `filename` is 256 bytes of UTF-8, over the limit of 255"
    );
}

/// The cases the SessionAgent library is tested with too (tests/js/agent/file_urls.test.mjs):
/// both sides accept and refuse the same URLs.
#[test]
fn the_shared_cases_are_accepted_and_refused_as_the_library_does() {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("../../../../tests/fixtures/file-urls.json"))
            .expect("tests/fixtures/file-urls.json is JSON");
    let list = |name: &str| -> Vec<String> {
        cases[name]
            .as_array()
            .map(|urls| {
                urls.iter()
                    .filter_map(|u| u.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (accepted, refused) = (list("accepted"), list("refused"));
    assert!(accepted.len() > 10 && refused.len() > 50);
    for url in &accepted {
        assert_eq!(check_url(url), Ok(()), "{url:?}");
    }
    for url in &refused {
        assert!(check_url(url).is_err(), "{url:?}");
    }
}

proptest::proptest! {
    /// No text makes the checks panic (each is read before it is counted).
    #[test]
    fn no_url_panics(url in "(https?|data|DATA):[ -~é１]{0,60}", tail in "[0-9a-fA-F:.\\[\\]@%/;,=+]{0,40}") {
        let _ = check_url(&url);
        let _ = check_url(&format!("https://{tail}"));
        let _ = check_url(&format!("https://[{tail}]:{tail}"));
        let _ = check_file(&tail, &url, Some(&tail));
    }
}

#[test]
fn this_workers_file_urls_are_taken_for_their_own_session_only() {
    let at = FilesAt {
        origin: "http://127.0.0.1:8787",
        session: "s1",
    };
    let file = "0123456789abcdef0123456789abcdef";
    let ours = format!("http://127.0.0.1:8787/api/sessions/s1/files/{file}?exp=1&sig=00");
    assert_eq!(check_file_at("image/png", &ours, None, Some(&at)), Ok(()));
    // Without `at`, the same URL is a host no agent may be sent to.
    assert!(check_file_at("image/png", &ours, None, None).is_err());
    let url = |path: &str| format!("http://127.0.0.1:8787{path}");
    for (path, fault) in [
        (
            format!("/api/sessions/s2/files/{file}"),
            UrlFault::OtherSession,
        ),
        (
            format!("/api/sessions/s1x/files/{file}"),
            UrlFault::OtherSession,
        ),
        (
            "/api/sessions/s1/files/../../x".to_owned(),
            UrlFault::NoFile,
        ),
        ("/api/sessions/s1/files/ABC".to_owned(), UrlFault::NoFile),
    ] {
        assert_eq!(
            check_file_at("image/png", &url(&path), None, Some(&at)),
            Err(FileFault::Url(fault)),
            "{path}"
        );
    }
    // Another origin's URL is checked as any URL.
    let other = format!("https://example.com/api/sessions/s2/files/{file}");
    assert_eq!(check_file_at("image/png", &other, None, Some(&at)), Ok(()));
}

#[test]
fn a_data_url_that_is_not_base64_says_which_byte_where() {
    let fault = UrlFault::DataPayload {
        at: 0,
        byte: b'<',
        of: 8,
    };
    assert_eq!(
        fault.to_string(),
        "is a data: URL whose data is not base64 (byte 0x3c at 0 of its 8)"
    );
}
