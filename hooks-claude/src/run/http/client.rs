//! The POST itself, through a shared `reqwest` client (rustls on `ring`, the platform's
//! verifier, no redirects); built with the `http` feature only.

use std::sync::{Arc, OnceLock};

use super::{Answer, Failure, Post};

/// The engine's HTTP client, built on first use and shared by its `http` hooks.
#[derive(Debug, Default)]
pub(crate) struct Client(OnceLock<Result<reqwest::Client, String>>);

impl Client {
    fn get(&self) -> Result<&reqwest::Client, Failure> {
        self.0.get_or_init(build_client).as_ref().map_err(|e| Failure::Connection(e.clone()))
    }

    /// Posts, reading at most `max_body` bytes of the answer, all within the timeout.
    pub(crate) async fn post(&self, post: Post) -> Result<Answer, Failure> {
        let client = self.get()?.clone();
        let timeout = post.timeout;
        tokio::time::timeout(timeout, send(client, post)).await.unwrap_or(Err(Failure::TimedOut))
    }
}

async fn send(client: reqwest::Client, post: Post) -> Result<Answer, Failure> {
    use reqwest::header::{CONTENT_TYPE, HeaderName, HeaderValue};
    let mut request = client.post(&post.url).header(CONTENT_TYPE, "application/json");
    for (name, value) in &post.headers {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Failure::InvalidHeader(name.clone()))?;
        let mut value =
            HeaderValue::from_str(value).map_err(|_| Failure::InvalidHeader(name.to_string()))?;
        value.set_sensitive(true);
        request = request.header(name, value);
    }
    let mut response =
        request.body(post.body).send().await.map_err(|e| Failure::Connection(error_text(&e)))?;
    let status = response.status().as_u16();
    let mut body = Vec::new();
    let mut truncated = false;
    while let Some(chunk) =
        response.chunk().await.map_err(|e| Failure::Connection(error_text(&e)))?
    {
        if super::keep_chunk(&mut body, &chunk, post.max_body) {
            truncated = true;
            break;
        }
    }
    Ok(Answer { status, body, truncated })
}

/// An error's text with its causes (reqwest's own message alone says little).
fn error_text(e: &reqwest::Error) -> String {
    // The URL is left out: it may carry credentials.
    let mut text = match e.url() {
        Some(url) => e.to_string().replace(url.as_str(), "<url>"),
        None => e.to_string(),
    };
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// A client with rustls on the `ring` provider (no process-wide provider is installed), the
/// platform's certificate verifier, and no redirects: a redirect is an answer that is not
/// 2xx, so that a redirect can never take a hook to a URL the allowlist did not approve.
fn build_client() -> Result<reqwest::Client, String> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(BuilderVerifierExt::with_platform_verifier)
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_no_client_auth();
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("hooks-claude/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {}", error_text(&e)))
}
