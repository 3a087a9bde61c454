//! Tests of `routes`.

use super::*;

#[test]
fn the_path_is_read_from_the_url() {
    for (url, path) in [
        (
            "https://example.com/api/sessions/s1/chat",
            "/api/sessions/s1/chat",
        ),
        (
            "http://127.0.0.1:8787/api/sessions/s1/chat?trace=full",
            "/api/sessions/s1/chat",
        ),
        ("https://example.com/a%3Fb/c#top", "/a%3Fb/c"),
        ("https://example.com/", "/"),
        ("https://example.com", "/"),
        ("https://example.com?x=/y", "/"),
        ("/api/x?y", "/api/x"),
    ] {
        assert_eq!(path_of_url(url), path, "{url}");
    }
}

#[test]
fn the_list_and_a_session_of_it_are_routes() {
    assert_eq!(Route::match_path("/api/sessions"), Route::Sessions);
    assert_eq!(
        Route::match_path("/api/sessions/s1"),
        Route::Session { session: "s1" }
    );
    // An empty id routes, to its precise 400.
    assert_eq!(
        Route::match_path("/api/sessions/"),
        Route::Session { session: "" }
    );
    assert_eq!(Route::Sessions.allow(), "GET, OPTIONS");
    assert_eq!(
        Route::Session { session: "s" }.allow(),
        "PATCH, DELETE, OPTIONS"
    );
    assert_eq!(Route::Sessions.session(), None);
    assert_eq!(Route::Session { session: "s" }.session(), Some("s"));
    assert!(Route::Sessions.answered_by(false, false));
    assert_eq!(Route::match_path("/api/sessions/s1/other"), Route::NotFound);
    // A session may be named as a route's last segment is.
    assert_eq!(
        Route::match_path("/api/sessions/chat"),
        Route::Session { session: "chat" }
    );
}

#[test]
fn paths_match_their_routes() {
    assert_eq!(
        Route::match_path("/api/sessions/s1/chat"),
        Route::Chat { session: "s1" }
    );
    for log in ["received", "sent", "connections"] {
        assert_eq!(
            Route::match_path(&format!("/demo/sessions/a:b/{log}")),
            Route::DemoLog {
                session: "a:b",
                log
            }
        );
    }
    assert_eq!(
        Route::match_path("/api/sessions/s1/chat/stop"),
        Route::Stop { session: "s1" }
    );
    assert_eq!(
        Route::match_path("/api/sessions/s1/chat/chat-9/stream"),
        Route::Resume {
            session: "s1",
            chat: "chat-9"
        }
    );
    assert_eq!(
        Route::match_path("/api/sessions/s1/messages"),
        Route::Messages { session: "s1" }
    );
    assert_eq!(Route::Messages { session: "s" }.allow(), "GET, OPTIONS");
    assert_eq!(
        Route::match_path("/api/sessions/s1/events"),
        Route::Events { session: "s1" }
    );
    assert_eq!(Route::Events { session: "s" }.allow(), "GET, OPTIONS");
    assert_eq!(Route::Events { session: "s" }.session(), Some("s"));
    assert_eq!(Route::Stop { session: "s" }.session(), Some("s"));
    assert_eq!(Route::match_path("/demo/sessions/x/other"), Route::NotFound);
    assert_eq!(Route::match_path("/"), Route::Playground);
    assert_eq!(Route::Playground.allow(), "GET");
    for other in [
        "/index.html",
        "/api/sessions//chat/x",
        "/api/sessions/s/chat/",
        "/api/sessions/s/chat//stream",
        "/api/sessions/s/chat/c/stream/x",
        "/api/sessions/s/messages/1",
        "/api/sessions/s/events/1",
        "/api/session/s/chat",
        "/API/sessions/s/chat",
        "//api/sessions/s1/messages",
        "//api/sessions/s1/chat",
        "///api/sessions/s1/chat/stop",
        "//",
        "//demo/sessions/s/sent",
        "api/sessions/s1/chat",
    ] {
        assert_eq!(Route::match_path(other), Route::NotFound, "{other}");
    }
    // An empty id still routes, so it gets the precise 400 rather than a 404.
    assert_eq!(
        Route::match_path("/api/sessions//chat"),
        Route::Chat { session: "" }
    );
    assert_eq!(Route::Chat { session: "s" }.allow(), "POST, OPTIONS");
}

#[test]
fn a_mounted_adapter_answers_its_routes_and_leaves_the_rest() {
    for path in [
        "/api/sessions/s/chat",
        "/api/sessions/s/chat/stop",
        "/api/sessions/s/chat/c/stream",
        "/api/sessions/s/messages",
    ] {
        let route = Route::match_path(path);
        assert!(
            route.answered_by(false, false) && route.answered_by(true, false),
            "{path}"
        );
    }
    for path in ["/", "/demo/sessions/s/received"] {
        let route = Route::match_path(path);
        assert!(
            !route.answered_by(false, false) && route.answered_by(true, false),
            "{path}"
        );
    }
    // `PLAYGROUND = "on"`: the page, and still none of the demo's logs.
    assert!(Route::match_path("/").answered_by(false, true));
    assert!(!Route::match_path("/demo/sessions/s/received").answered_by(false, true));
    for path in ["/health", "/api/sessions/s/other", "/api/users"] {
        let route = Route::match_path(path);
        assert!(
            !route.answered_by(false, false) && !route.answered_by(true, true),
            "{path}"
        );
    }
}

#[test]
fn session_ids_are_checked() {
    assert!(valid_session_id("a"));
    assert!(valid_session_id("user_1:chat-2.v3"));
    assert!(valid_session_id(&"x".repeat(MAX_SESSION_ID_LEN)));
    for bad in ["", "a b", "a/b", "é", "a%20b", "<script>"] {
        assert!(!valid_session_id(bad), "{bad}");
    }
    assert!(!valid_session_id(&"x".repeat(MAX_SESSION_ID_LEN + 1)));
}

#[test]
fn json_content_types() {
    for ok in [
        "application/json",
        "Application/JSON; charset=utf-8",
        "application/vnd.api+json",
    ] {
        assert!(is_json_content_type(Some(ok)), "{ok}");
    }
    for bad in [
        None,
        Some(""),
        Some("text/plain"),
        Some("application/jsonx"),
        Some("text/json"),
    ] {
        assert!(!is_json_content_type(bad), "{bad:?}");
    }
}

#[test]
fn the_files_routes_match_their_paths() {
    assert_eq!(
        Route::match_path("/api/sessions/s1/files"),
        Route::Files { session: "s1" }
    );
    assert_eq!(Route::Files { session: "s" }.allow(), "POST, OPTIONS");
    let file = Route::match_path("/api/sessions/s1/files/abc");
    assert_eq!(
        file,
        Route::File {
            session: "s1",
            file: "abc"
        }
    );
    assert_eq!((file.allow(), file.session()), ("GET, OPTIONS", Some("s1")));
    assert_eq!(
        Route::match_path("/api/sessions/s1/files/"),
        Route::NotFound
    );
    assert_eq!(
        Route::match_path("/api/sessions/s1/files/a/b"),
        Route::NotFound
    );
}
