//! A real HTTP/1.1 server on loopback for the `http` hook tests: it records every request and
//! answers with what the test scripts, after an optional delay.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

/// One request the server received.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Recorded {
    /// A header's value, by case-insensitive name.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) delay: Duration,
}

impl Reply {
    pub(crate) fn new(status: u16, body: impl Into<Vec<u8>>) -> Self {
        Self { status, body: body.into(), delay: Duration::ZERO }
    }

    pub(crate) fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// A running server; it stops when the test's runtime ends.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl Server {
    /// Starts a server on `127.0.0.1`, on a free port, answering each request with `reply`.
    pub(crate) async fn start(reply: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let reply = Arc::new(reply);
        let seen = Arc::clone(&requests);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let (reply, seen) = (Arc::clone(&reply), Arc::clone(&seen));
                tokio::spawn(async move {
                    let service = service_fn(move |req: Request<Incoming>| {
                        let (reply, seen) = (Arc::clone(&reply), Arc::clone(&seen));
                        async move {
                            let (parts, body) = req.into_parts();
                            let body =
                                body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            let recorded = Recorded {
                                method: parts.method.to_string(),
                                path: parts.uri.path().to_owned(),
                                headers: parts
                                    .headers
                                    .iter()
                                    .map(|(k, v)| {
                                        (k.to_string(), v.to_str().unwrap_or("").to_owned())
                                    })
                                    .collect(),
                                body: body.to_vec(),
                            };
                            let r = reply(&recorded);
                            seen.lock().unwrap().push(recorded);
                            tokio::time::sleep(r.delay).await;
                            let mut response = Response::new(Full::new(Bytes::from(r.body)));
                            *response.status_mut() = hyper::StatusCode::from_u16(r.status).unwrap();
                            Ok::<_, Infallible>(response)
                        }
                    });
                    let _ =
                        http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                });
            }
        });
        Self { addr, requests }
    }

    /// A URL on this server.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Every request received so far.
    pub(crate) fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

/// A loopback port with nothing listening (bound, then released).
pub(crate) async fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}
