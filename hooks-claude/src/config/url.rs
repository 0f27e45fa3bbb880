//! An `http` handler's URL and header names as a configuration writes them
//! ([HTTP hooks](crate::compatibility#http-hooks)): checked when the file loads, and shown in
//! records and logs with any password replaced. The URL parser is the `http` feature's; without
//! it only the scheme is checked, and an `http` hook never runs.

/// Whether this build runs `http` hooks (the `http` feature, on by default).
pub(crate) const BUILT: bool = cfg!(feature = "http");

/// What a harness built without the `http` feature says about an `http` hook.
pub(crate) const NOT_BUILT: &str = "`http` hooks are not built into this program (the `http` \
     feature of hooks-claude is off)";

/// A URL an `http` handler cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum UrlError {
    /// It does not parse as an absolute URL.
    #[error("`url` `{url}` is not an absolute URL: {reason}")]
    Invalid {
        /// The URL as written.
        url: String,
        /// Why.
        reason: String,
    },
    /// Its scheme is neither `http` nor `https`.
    #[error("`url` `{url}` must use `http` or `https`, not `{scheme}`")]
    Scheme {
        /// The URL as written.
        url: String,
        /// Its scheme.
        scheme: String,
    },
    /// A header name that HTTP does not allow.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "names are checked with the client")
    )]
    #[error("`{name}` is not a valid HTTP header name")]
    HeaderName {
        /// The name as written.
        name: String,
    },
}

/// Checks that `url` is an absolute `http` or `https` URL.
#[cfg(feature = "http")]
pub(crate) fn check_url(url: &str) -> Result<reqwest::Url, UrlError> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| UrlError::Invalid { url: url.to_owned(), reason: e.to_string() })?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed),
        other => Err(UrlError::Scheme { url: url.to_owned(), scheme: other.to_owned() }),
    }
}

/// Without the `http` feature no URL parser is built: only the scheme is checked (the hook
/// does not run anyway).
#[cfg(not(feature = "http"))]
pub(crate) fn check_url(url: &str) -> Result<(), UrlError> {
    match url.split_once("://") {
        Some(("http" | "https", _)) => Ok(()),
        Some((scheme, _)) => {
            Err(UrlError::Scheme { url: url.to_owned(), scheme: scheme.to_owned() })
        }
        None => Err(UrlError::Invalid { url: url.to_owned(), reason: "no scheme".to_owned() }),
    }
}

/// A URL as records and logs show it: a password in it replaced by `***`.
#[cfg(feature = "http")]
pub(crate) fn shown_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

/// Without the `http` feature: any user information before the host is replaced by `***`.
#[cfg(not(feature = "http"))]
pub(crate) fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => url.to_owned(),
    }
}

/// Checks that `name` is a valid header name.
#[cfg(feature = "http")]
pub(crate) fn check_header_name(name: &str) -> Result<(), UrlError> {
    reqwest::header::HeaderName::from_bytes(name.as_bytes())
        .map(|_| ())
        .map_err(|_| UrlError::HeaderName { name: name.to_owned() })
}

/// Without the `http` feature header names are not checked (the hook does not run).
#[cfg(not(feature = "http"))]
pub(crate) fn check_header_name(_name: &str) -> Result<(), UrlError> {
    Ok(())
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_urls_are_not_shown() {
        assert_eq!(shown_url("https://u:pw@h.example/x"), "https://u:***@h.example/x");
        assert_eq!(shown_url("https://h.example/x"), "https://h.example/x");
    }

    #[test]
    fn urls_are_checked_at_load() {
        assert!(check_url("https://a.example/x").is_ok());
        assert!(matches!(check_url("ftp://a.example/"), Err(UrlError::Scheme { .. })));
        assert!(matches!(check_url("/relative"), Err(UrlError::Invalid { .. })));
        assert!(check_header_name("X-Token").is_ok());
        assert!(check_header_name("bad header").is_err());
    }
}
