//! Tests of `files::settings`: defaults, bounds and errors.

use super::*;

/// The settings of `pairs`, read as `crate::config` reads them (its rule for numbers).
fn read(pairs: &[(&str, &str)]) -> Result<FileSettings, String> {
    let mut vars: Vec<(&str, &str)> = vec![("AUTH_MODE", "none")];
    vars.extend_from_slice(pairs);
    crate::config::Config::from_vars(
        |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        },
        false,
    )
    .map(|config| config.files)
    .map_err(|err| err.0)
}

#[test]
fn the_errors_name_the_bounds_of_their_constants() {
    assert!(TTL_ERROR.contains(&format!("from 1 to {MAX_URL_TTL_SECS} ")));
    assert!(SECRET_ERROR.contains(&format!("at least {MIN_SECRET_BYTES} bytes")));
    assert!(UPLOAD_TTL_ERROR.contains(&format!("from 1 to {MAX_UPLOAD_TTL_HOURS} ")));
}

#[test]
fn an_upload_lives_a_day_unless_told_and_at_most_thirty() {
    assert_eq!(read(&[]).unwrap().upload_ttl_hours, 24);
    assert_eq!(read(&[("UPLOAD_TTL_H", "2")]).unwrap().upload_ttl_hours, 2);
    assert_eq!(
        read(&[("UPLOAD_TTL_H", "720")]).unwrap().upload_ttl_hours,
        720
    );
    assert_eq!(
        read(&[("UPLOAD_TTL_H", "721")]).unwrap_err(),
        UPLOAD_TTL_ERROR
    );
    for bad in ["0", "", "a day"] {
        assert!(
            read(&[("UPLOAD_TTL_H", bad)])
                .unwrap_err()
                .contains("UPLOAD_TTL_H"),
            "{bad}"
        );
    }
}

#[test]
fn defaults_when_nothing_is_set() {
    let s = read(&[]).unwrap();
    assert_eq!(s.max_file_bytes, 10_485_760);
    assert_eq!(s.url_ttl_secs, 3_600);
    assert_eq!(s.secret, None);
    for allowed in [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "application/pdf",
        "text/plain",
    ] {
        assert!(s.types.allows(allowed), "{allowed}");
    }
    for refused in ["image/svg+xml", "text/html", "application/octet-stream"] {
        assert!(!s.types.allows(refused), "{refused}");
    }
}

#[test]
fn each_setting_is_read_and_bounded() {
    let secret = "k".repeat(32);
    let s = read(&[
        ("MAX_FILE_BYTES", "1_000"),
        ("FILE_TYPES", "image/*"),
        ("FILE_URL_TTL_S", "604800"),
        ("FILES_SECRET", &secret),
    ])
    .unwrap();
    assert_eq!((s.max_file_bytes, s.url_ttl_secs), (1_000, 604_800));
    assert!(s.types.allows("image/svg+xml"));
    assert_eq!(s.secret.as_deref(), Some(secret.as_bytes()));
    assert!(
        !format!("{s:?}").contains(&secret),
        "the secret is never printed"
    );
    for (name, value) in [
        ("MAX_FILE_BYTES", "0"),
        ("MAX_FILE_BYTES", "ten"),
        ("FILE_TYPES", "png"),
        ("FILE_URL_TTL_S", "0"),
        ("FILE_URL_TTL_S", "604801"),
        ("FILES_SECRET", "short"),
    ] {
        let err = read(&[(name, value)]).unwrap_err();
        assert!(err.starts_with(name), "{name}={value}: {err}");
    }
}
