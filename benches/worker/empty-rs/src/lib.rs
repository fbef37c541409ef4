//! The empty Rust Worker: every request gets the same fixed body, the request is not read.
#![cfg(target_arch = "wasm32")]

use worker::{event, Context, Env, Request, Response, Result};

const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;

#[event(fetch)]
async fn fetch(_req: Request, _env: Env, _ctx: Context) -> Result<Response> {
    let mut response = Response::from_bytes(BODY.to_vec())?;
    response
        .headers_mut()
        .set("content-type", "application/json")?;
    Ok(response)
}
