//! The network side of `http` hooks, and the only network code of the crate: the URL allowlist,
//! header interpolation limited to allowed variables, and one POST bounded on the wall clock and
//! in size (`client.rs`, built with the `http` feature only).
//!
//! HTTP requests are not processes, so they do not go through `hook_exec`; what this
//! module returns is decoded elsewhere by the answer rules of
//! [HTTP hooks](crate::compatibility#http-hooks). Header values are secrets as far as this module
//! is concerned: they are never logged nor put in an error.

use std::fmt;
#[cfg(feature = "http")]
use std::time::Duration;

use regex::Regex;

use crate::Config;

#[cfg(feature = "http")]
mod client;
#[cfg(feature = "http")]
pub(crate) use client::Client;

/// The harness-level limits on `http` hooks ([HTTP hooks](crate::compatibility#http-hooks)): which
/// URLs they may post to (`allowedHttpHookUrls`) and which environment variables their headers may
/// interpolate (`httpHookAllowedEnvVars`). Both apply to hooks of every source.
///
/// Whatever the lists say, a header never interpolates one of the agent's own model credentials
/// ([`HttpPolicy::CREDENTIALS`] by default, [`HttpPolicy::withhold`] to name the harness's): its
/// value is empty and the hook's record carries a warning that names the variable.
#[derive(Clone)]
pub struct HttpPolicy {
    urls: Option<Vec<(String, Option<Regex>)>>,
    env_vars: Option<Vec<String>>,
    withheld: Vec<String>,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        Self {
            urls: None,
            env_vars: None,
            withheld: Self::CREDENTIALS.iter().map(|&n| n.to_owned()).collect(),
        }
    }
}

impl fmt::Debug for HttpPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpPolicy")
            .field(
                "allowed_urls",
                &self.urls.as_ref().map(|u| u.iter().map(|(p, _)| p).collect::<Vec<_>>()),
            )
            .field("allowed_env_vars", &self.env_vars)
            .field("withheld", &self.withheld)
            .finish()
    }
}

impl HttpPolicy {
    /// The variables withheld from headers unless the harness says otherwise: Claude Code's own
    /// model credentials (the API key, the bearer token, the OAuth token).
    pub const CREDENTIALS: [&'static str; 3] =
        ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"];

    /// No limit beyond each handler's own `allowedEnvVars`, and the default credentials
    /// ([`HttpPolicy::CREDENTIALS`]) withheld.
    pub fn unrestricted() -> Self {
        Self::default()
    }

    /// The limits the loaded settings files set (`allowedHttpHookUrls`,
    /// `httpHookAllowedEnvVars`, merged across files).
    pub fn from_config(config: &Config) -> Self {
        let mut policy = Self::default();
        if let Some(urls) = &config.allowed_http_hook_urls {
            policy = policy.allow_urls(urls.iter().cloned());
        }
        if let Some(vars) = &config.http_hook_allowed_env_vars {
            policy = policy.allow_env_vars(vars.iter().cloned());
        }
        policy
    }

    /// Restricts URLs to those matching one of `patterns` (`*` matches any run of characters,
    /// the scheme and host compare case-insensitively, a trailing dot on the host is ignored).
    /// Patterns add up over calls; an empty list blocks every URL.
    pub fn allow_urls(mut self, patterns: impl IntoIterator<Item = String>) -> Self {
        let list = self.urls.get_or_insert_with(Vec::new);
        for p in patterns {
            let regex = url_pattern(&p);
            list.push((p, regex));
        }
        self
    }

    /// Restricts interpolated variables to `names` (on top of each handler's
    /// `allowedEnvVars`). Names add up over calls; an empty list allows none.
    pub fn allow_env_vars(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.env_vars.get_or_insert_with(Vec::new).extend(names);
        self
    }

    /// Whether an `http` hook may post to `url` (never, in a build without the `http`
    /// feature).
    pub fn url_allowed(&self, url: &str) -> bool {
        #[cfg(feature = "http")]
        {
            let Some(patterns) = &self.urls else { return true };
            let Ok(parsed) = reqwest::Url::parse(url) else { return false };
            let normalized = normalize(&parsed);
            patterns.iter().any(|(_, r)| r.as_ref().is_some_and(|r| r.is_match(&normalized)))
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = url;
            false
        }
    }

    /// The harness's own model credentials, which no header interpolates whatever the lists
    /// say: `names` replace the default set ([`HttpPolicy::CREDENTIALS`]). A harness that
    /// calls its model with another variable names it here, with the defaults if it keeps them.
    pub fn withhold(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.withheld = names.into_iter().collect();
        self
    }

    /// Whether the policy lets a header interpolate `name` (the handler must allow it too). A
    /// withheld credential is never allowed.
    pub fn env_var_allowed(&self, name: &str) -> bool {
        !self.withholds(name) && self.env_vars.as_ref().is_none_or(|v| v.iter().any(|n| n == name))
    }

    /// Whether `name` is one of the credentials no header interpolates.
    pub fn withholds(&self, name: &str) -> bool {
        self.withheld.iter().any(|n| n == name)
    }
}

/// A URL as patterns are matched against: `scheme://host[:port]/path[?query]`, the host
/// lowercased and without a trailing dot, no user information.
#[cfg(feature = "http")]
fn normalize(url: &reqwest::Url) -> String {
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    let host = host.strip_suffix('.').unwrap_or(&host);
    let mut out = format!("{}://{host}", url.scheme());
    if let Some(port) = url.port() {
        out.push_str(&format!(":{port}"));
    }
    out.push_str(url.path());
    if let Some(q) = url.query() {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The anchored regex of an allowlist pattern: its scheme and authority lowercased (a
/// trailing dot on the host dropped), `*` matching anything, everything else literal. Escaped
/// literals joined by `.*` always compile; were one not to, it would match nothing.
fn url_pattern(pattern: &str) -> Option<Regex> {
    let (head, rest) = match pattern.find("://") {
        Some(i) => {
            let after = i + 3;
            let end = pattern[after..].find(['/', '?']).map_or(pattern.len(), |j| after + j);
            let mut authority = pattern[..end].to_ascii_lowercase();
            if let Some(colon) = authority[after..].rfind(':').map(|c| after + c) {
                if authority[..colon].ends_with('.') {
                    authority.remove(colon - 1);
                }
            } else if authority.ends_with('.') {
                authority.pop();
            }
            (authority, &pattern[end..])
        }
        None => (String::new(), pattern),
    };
    let whole = format!("{head}{rest}");
    let body: Vec<String> = whole.split('*').map(regex::escape).collect();
    Regex::new(&format!("^{}$", body.join(".*"))).ok()
}

#[cfg(feature = "http")]
/// Replaces `$VAR` and `${VAR}` in a header value by what `resolve` gives for the name: its value
/// when the name is allowed and set, nothing otherwise
/// ([HTTP hooks](crate::compatibility#http-hooks)). A `$` not followed by a name stays.
pub(crate) fn interpolate(value: &str, mut resolve: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (name, consumed) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) if is_name(&inner[..end]) => (&inner[..end], end + 2),
                _ => ("", 0),
            }
        } else {
            let end = after
                .char_indices()
                .find(|&(j, c)| {
                    !(c == '_' || c.is_ascii_alphabetic() || (j > 0 && c.is_ascii_digit()))
                })
                .map_or(after.len(), |(j, _)| j);
            (&after[..end], end)
        };
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        out.push_str(&resolve(name).unwrap_or_default());
        rest = &after[consumed..];
    }
    out.push_str(rest);
    out
}

#[cfg(feature = "http")]
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Appends one chunk of an answer's body to `body`, keeping at most `max_body` bytes in all;
/// true when the chunk went past the cap (the rest is dropped and reading stops).
///
/// The client's reading loop; public for the fuzz target of the answer path.
#[doc(hidden)]
pub fn keep_chunk(body: &mut Vec<u8>, chunk: &[u8], max_body: usize) -> bool {
    let room = max_body.saturating_sub(body.len());
    if chunk.len() > room {
        body.extend_from_slice(&chunk[..room]);
        return true;
    }
    body.extend_from_slice(chunk);
    false
}

#[cfg(feature = "http")]
/// One POST to make.
#[derive(Clone)]
pub(crate) struct Post {
    pub(crate) url: String,
    /// Names and values, already interpolated (never logged).
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) timeout: Duration,
    pub(crate) max_body: usize,
}

#[cfg(feature = "http")]
/// What the server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    /// At most `max_body` bytes.
    pub(crate) body: Vec<u8>,
    /// Whether the body went past `max_body` (reading stopped there).
    pub(crate) truncated: bool,
}

#[cfg(feature = "http")]
/// Why a POST produced no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The timeout passed first.
    TimedOut,
    /// No connection, a broken connection, a TLS failure, ...
    Connection(String),
    /// A header value is not valid in HTTP (after interpolation); only the name is kept.
    InvalidHeader(String),
}

#[cfg(feature = "http")]
impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::TimedOut => f.write_str("timed out"),
            Failure::Connection(e) => write!(f, "request failed: {e}"),
            Failure::InvalidHeader(name) => {
                write!(f, "header `{name}` has a value that is not valid in HTTP")
            }
        }
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    fn allows(patterns: &[&str], url: &str) -> bool {
        HttpPolicy::default().allow_urls(patterns.iter().map(|p| (*p).to_owned())).url_allowed(url)
    }

    #[test]
    fn allowlist_wildcards_and_hosts() {
        assert!(allows(&["https://hooks.example.com/*"], "https://hooks.example.com/a/b?c=1"));
        assert!(allows(&["https://*.example.com/*"], "https://a.b.example.com/x"));
        assert!(!allows(&["https://*.example.com/*"], "https://example.org/x"));
        assert!(allows(&["https://HOOKS.Example.com/*"], "https://hooks.example.COM./x"));
        assert!(allows(&["https://hooks.example.com./x"], "https://hooks.example.com/x"));
        assert!(allows(&["http://127.0.0.1:*/*"], "http://127.0.0.1:8080/hook"));
        assert!(!allows(&["http://127.0.0.1:*/*"], "https://127.0.0.1:8080/hook"));
        assert!(!allows(&["https://a.com/hook"], "https://a.com/hook/more"), "anchored");
        assert!(!allows(&["https://a.com/Hook"], "https://a.com/hook"), "paths keep their case");
        assert!(!allows(&["https://a.com/?x"], "https://a.com/ax"), "`?` is literal");
        assert!(!allows(&[], "https://a.com/"), "an empty list blocks all");
        assert!(HttpPolicy::default().url_allowed("https://anything/"), "no list, no limit");
        assert!(allows(&["*"], "https://anything/"));
    }

    #[test]
    fn interpolation_reads_only_allowed_names() {
        let only_token = |n: &str| (n == "TOKEN").then(|| format!("<{n}>"));
        assert_eq!(
            interpolate("Bearer $TOKEN and ${TOKEN}, $SECRET ${SECRET}!", only_token),
            "Bearer <TOKEN> and <TOKEN>,  !"
        );
        assert_eq!(interpolate("$ 5 $1 ${ } ${A", only_token), "$ 5 $1 ${ } ${A");
        assert_eq!(interpolate("$TOKEN_2x", |n| Some(format!("<{n}>"))), "<TOKEN_2x>");
        assert_eq!(interpolate("$TOKEN", |_| None), "", "unset is empty");
    }

    #[test]
    fn credentials_are_withheld_whatever_the_lists_say() {
        let policy = HttpPolicy::unrestricted();
        for name in HttpPolicy::CREDENTIALS {
            assert!(policy.withholds(name) && !policy.env_var_allowed(name), "{name}");
        }
        let listed = HttpPolicy::unrestricted().allow_env_vars(["ANTHROPIC_API_KEY".to_owned()]);
        assert!(!listed.env_var_allowed("ANTHROPIC_API_KEY"), "listing a credential is not enough");
        let own = HttpPolicy::unrestricted().withhold(["MY_MODEL_KEY".to_owned()]);
        assert!(own.withholds("MY_MODEL_KEY") && !own.env_var_allowed("MY_MODEL_KEY"));
        assert!(own.env_var_allowed("ANTHROPIC_API_KEY"), "the harness's set replaces the default");
    }

    #[test]
    fn the_answer_is_kept_up_to_its_cap() {
        let mut body = Vec::new();
        assert!(!keep_chunk(&mut body, b"abc", 5));
        assert!(!keep_chunk(&mut body, b"de", 5));
        assert!(keep_chunk(&mut body, b"f", 5), "one byte past the cap");
        assert_eq!(body, b"abcde");
        let mut none = Vec::new();
        assert!(keep_chunk(&mut none, b"x", 0));
        assert!(none.is_empty());
    }
}
