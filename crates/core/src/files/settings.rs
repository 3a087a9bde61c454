//! The files routes' settings: `MAX_FILE_BYTES`, `FILE_TYPES`, `FILE_URL_TTL_S`, `UPLOAD_TTL_H`
//! and the `FILES_SECRET` that signs a file's URL (docs/configuration.md). Read by `crate::config`,
//! with its rules: absent, the default; empty or unparsable, an error naming the setting.

use crate::auth::MIN_SECRET_BYTES;
use crate::files::name::TypeList;
use crate::files::pending::{DEFAULT_UPLOAD_TTL_HOURS, MAX_UPLOAD_TTL_HOURS};
use crate::refusal::{Refusal, FILES_NOT_CONFIGURED};

/// Default largest upload, in bytes: 10 MiB, a phone's photo (a 12 MP JPEG is 3 to 5 MB) twice
/// over, or a long PDF; a tenth of the 100 MB request body the Workers Free and Pro plans take.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Default `FILE_TYPES`: raster images (served inline), PDF and plain text (served as
/// attachments). No SVG or HTML, which can carry script: a site that lists them gets them as
/// attachments in a sandbox (`crate::files::serve`).
pub const DEFAULT_FILE_TYPES: &str =
    "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain";

/// Default life of a signed URL, in seconds: one hour, a chat page's visit; the page asks again
/// with its credentials for a file it shows later (docs/files.md).
pub const DEFAULT_URL_TTL_SECS: u64 = 3_600;

/// The longest `FILE_URL_TTL_S`, in seconds: seven days, the longest life S3 gives a presigned
/// URL (its SigV4 `X-Amz-Expires` bound), which R2's presigned URLs keep too.
pub const MAX_URL_TTL_SECS: u64 = 7 * 24 * 3_600;

/// The files routes' settings.
#[derive(Clone, PartialEq, Eq)]
pub struct FileSettings {
    pub max_file_bytes: u64,
    pub types: TypeList,
    pub url_ttl_secs: u64,
    /// How long an upload no message named is kept, in hours (`UPLOAD_TTL_H`:
    /// `crate::files::pending`).
    pub upload_ttl_hours: u64,
    /// The key of the URLs' HMAC (`FILES_SECRET`); without it, the files routes are closed
    /// (`501 files_not_configured`), as without the bucket.
    pub secret: Option<Vec<u8>>,
}

impl std::fmt::Debug for FileSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret.
        f.debug_struct("FileSettings")
            .field("max_file_bytes", &self.max_file_bytes)
            .field("types", &self.types)
            .field("url_ttl_secs", &self.url_ttl_secs)
            .field("upload_ttl_hours", &self.upload_ttl_hours)
            .field("secret", &self.secret.as_ref().map(|_| "…"))
            .finish()
    }
}

impl FileSettings {
    /// The settings of the values given (`crate::config` reads them, with its rules: absent, the
    /// default; empty, an error; a number a positive integer): `types` (`FILE_TYPES`), `ttl_secs`
    /// (`FILE_URL_TTL_S`), `secret` (`FILES_SECRET`) and `max_file_bytes` (`MAX_FILE_BYTES`);
    /// the error names the setting.
    pub fn new(
        types: Option<&str>,
        url_ttl_secs: u64,
        secret: Option<String>,
        max_file_bytes: u64,
    ) -> Result<Self, &'static str> {
        let types = TypeList::parse(types.unwrap_or(DEFAULT_FILE_TYPES)).ok_or(TYPES_ERROR)?;
        if url_ttl_secs > MAX_URL_TTL_SECS {
            return Err(TTL_ERROR);
        }
        if secret.as_ref().is_some_and(|s| s.len() < MIN_SECRET_BYTES) {
            return Err(SECRET_ERROR);
        }
        Ok(FileSettings {
            max_file_bytes,
            types,
            url_ttl_secs,
            upload_ttl_hours: DEFAULT_UPLOAD_TTL_HOURS,
            secret: secret.map(String::into_bytes),
        })
    }

    /// The same, with `UPLOAD_TTL_H` (`crate::config` reads it: a positive integer) at most
    /// [`MAX_UPLOAD_TTL_HOURS`].
    pub fn with_upload_ttl(self, hours: u64) -> Result<Self, &'static str> {
        if hours > MAX_UPLOAD_TTL_HOURS {
            return Err(UPLOAD_TTL_ERROR);
        }
        Ok(FileSettings {
            upload_ttl_hours: hours,
            ..self
        })
    }
}

/// The error of an `UPLOAD_TTL_H` over [`MAX_UPLOAD_TTL_HOURS`] (the tests hold the two equal).
const UPLOAD_TTL_ERROR: &str = "UPLOAD_TTL_H must be from 1 to 720 (hours)";

/// The error of a `FILE_TYPES` that does not parse.
const TYPES_ERROR: &str =
    "FILE_TYPES must be a comma-separated list of media types (type/subtype or type/*)";
/// The error of a `FILE_URL_TTL_S` over [`MAX_URL_TTL_SECS`] (the tests hold the two equal).
const TTL_ERROR: &str = "FILE_URL_TTL_S must be from 1 to 604800 (seconds)";
/// The error of a `FILES_SECRET` shorter than [`MIN_SECRET_BYTES`] (the tests hold the two equal).
const SECRET_ERROR: &str = "FILES_SECRET must be at least 32 bytes";

/// `501 files_not_configured`: the worker has no `FILES` bucket or no `FILES_SECRET` (the log
/// names which), so its files routes are closed.
pub fn files_not_configured() -> Refusal {
    Refusal::new(
        FILES_NOT_CONFIGURED,
        "File uploads are not set up on this service.",
    )
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
