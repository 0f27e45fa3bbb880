//! An `http` hook's answer, from the bytes on the wire: any response (status line, headers,
//! body framing: `Content-Length`, chunked, to end of stream) is read by the HTTP/1 client the
//! hook uses, its body kept up to the cap as the hook keeps it, and decoded for every event
//! into a status, a verdict and a record (never a panic). A status alone never blocks, a body
//! past the cap is a warning, and the record names the status.
#![no_main]

use std::cell::RefCell;

use hook_protocol::Decision;
use hooks_claude::{EventName, OnFailure, RunRecord, decode_http_outcome, keep_chunk};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

thread_local! {
    static RUNTIME: RefCell<tokio::runtime::Runtime> = RefCell::new(
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("runtime: {e}")),
    );
}

/// What the client read: the status, the kept body, whether it went past the cap.
type Read = (u16, Vec<u8>, bool);

/// Sends one POST over an in-memory connection whose server side, once it has read the request,
/// answers `wire` and closes.
async fn answer(wire: &[u8], max_body: usize) -> Option<Read> {
    let (client, mut server) = tokio::io::duplex(1 << 20);
    let wire = wire.to_vec();
    tokio::spawn(async move {
        let mut request = Vec::new();
        let mut buf = [0; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            match server.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => request.extend_from_slice(&buf[..n]),
            }
        }
        let _ = server.write_all(&wire).await;
        let _ = server.shutdown().await;
        // Keep the server's end open until the client is done with it.
        let _ = server.read(&mut buf).await;
    });
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake::<_, Empty<Bytes>>(TokioIo::new(client))
            .await
            .ok()?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let request = hyper::Request::post("/hook").body(Empty::new()).ok()?;
    let response = sender.send_request(request).await.ok()?;
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut kept = Vec::new();
    let mut truncated = false;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else { break };
        if let Some(chunk) = frame.data_ref()
            && keep_chunk(&mut kept, chunk, max_body)
        {
            truncated = true;
            break;
        }
    }
    Some((status, kept, truncated))
}

fuzz_target!(|data: &[u8]| {
    let [event, cap, policy, wire @ ..] = data else { return };
    let event = EventName::ALL[usize::from(*event) % EventName::ALL.len()];
    // Small caps reach the truncation path; 0xff stands for the hooks' own 1 MiB.
    let max_body = if *cap == 0xff { 1 << 20 } else { usize::from(*cap) };
    let on_failure = if policy & 1 == 0 { OnFailure::Continue } else { OnFailure::Block };
    let read = RUNTIME.with_borrow(|rt| {
        rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(2), answer(wire, max_body))
                .await
                .ok()
                .flatten()
        })
    });
    let Some((status, body, truncated)) = read else { return };
    assert!(body.len() <= max_body);
    let outcome = decode_http_outcome(event, status, &body, truncated, on_failure);
    let meta = RunRecord::from_metadata(outcome.metadata.as_ref())
        .unwrap_or_else(|| panic!("no Claude record in {:?}", outcome.metadata));
    assert_eq!(meta.http_status, Some(status));
    assert_eq!(meta.event, event.as_str());
    if truncated {
        assert!(outcome.warnings.iter().any(|w| w.contains("size cap")), "{:?}", outcome.warnings);
    }
    let worktree = matches!(event, EventName::WorktreeCreate | EventName::WorktreeRemove);
    if !(200..300).contains(&status) && on_failure == OnFailure::Continue && !worktree {
        assert_eq!(outcome.verdict.decision, None::<Decision>, "status {status} alone blocked");
    }
});
