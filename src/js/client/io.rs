//! The transport of the npm client: the JavaScript io object as the client's HTTP I/O and JSON-RPC calls.

use super::*;

/// The transport of one call, as the JavaScript layer made it: the io object, its `url` (the
/// endpoint, where a 401's metadata is looked up) and its `authorized` flag (whether the
/// requests carry an `Authorization` header; the token itself never reaches the core's
/// messages).
pub(super) struct JsIo(
    pub(super) JsValue,
    pub(super) Option<String>,
    pub(super) bool,
);

pub(super) fn failure(value: &JsValue) -> ClientError {
    let text = |k: &str| {
        Reflect::get(value, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
    };
    let kind = text("code")
        .as_deref()
        .and_then(ClientCode::from_name)
        .and_then(|c| match c {
            ClientCode::Exchange(k) => Some(k),
            ClientCode::Verify(_) => None,
        })
        .unwrap_or(ExchangeKind::ConnectionFailed);
    let message = text("message")
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "the transport failed".to_owned());
    let mut e = ClientError::exchange(kind, message);
    if let Some(a) = text("actual") {
        e = e.with_actual(a);
    }
    if let Some(x) = text("expected") {
        e = e.with_expected(x);
    }
    if let Some(u) = text("uri") {
        e = e.with_uri(u);
    }
    e
}

pub(super) fn broken(what: &str) -> ClientError {
    ClientError::exchange(
        ExchangeKind::ProtocolError,
        format!("the transport gave {what}"),
    )
}

impl JsIo {
    pub(super) fn function(&self, name: &str) -> ClientResult<Function> {
        Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| {
                VerifyError::new(
                    ErrorCode::InvalidArgument,
                    format!("the io object has no {name}() function"),
                )
                .into()
            })
    }

    /// Awaits `promise` (anything thenable, or a plain value).
    pub(super) async fn settle(value: ClientResult<JsValue>) -> ClientResult<JsValue> {
        let value = value?;
        JsFuture::from(Promise::resolve(&value))
            .await
            .map_err(|e| failure(&e))
    }

    /// `io.digest(bytes)` for content of at least `io.digestThreshold` bytes (0 when absent):
    /// the wire digest it resolves to, or `None` (the verifier then hashes) when the io object
    /// has no such function, the content is smaller, or the call throws, rejects or gives
    /// anything but a wire digest.
    pub(super) async fn digest(&self, bytes: &[u8]) -> Option<String> {
        let f = self.function("digest").ok()?;
        let threshold = match Reflect::get(&self.0, &JsValue::from_str("digestThreshold")) {
            Ok(v) if v.is_undefined() => 0.0,
            Ok(v) => v.as_f64().filter(|t| *t >= 0.0)?,
            Err(_) => return None,
        };
        if (bytes.len() as f64) < threshold {
            return None;
        }
        let called = f
            .call1(&self.0, &js_sys::Uint8Array::from(bytes))
            .map_err(|e| failure(&e));
        let digest = JsIo::settle(called).await.ok()?.as_string()?;
        is_wire_digest(&digest).then_some(digest)
    }

    /// `io.request(method, params)`: the result the SDK client resolved to, as its JSON text
    /// (`JSON.stringify`), for the client's one reading with the strict reader. A result that
    /// `JSON.stringify` cannot write (`undefined`, a `BigInt`, a cycle) is refused here, as the
    /// transport's fault; text the strict reader then refuses (a lone surrogate, nesting
    /// deeper than its limit) is the client's `protocol-error` naming the method.
    pub(super) async fn request(&self, method: &str, params: Json) -> ClientResult<String> {
        let f = self.function("request")?;
        let params = json_value(&params.to_string()).map_err(|_| broken("unreadable params"))?;
        let called = f
            .call2(&self.0, &JsValue::from_str(method), &params)
            .map_err(|e| failure(&e));
        let result = JsIo::settle(called).await?;
        json_text(&result).ok_or_else(|| broken("a result that is not JSON"))
    }
}

/// A response body read through `read()`.
pub(super) struct JsBody {
    pub(super) read: Option<Function>,
    pub(super) this: JsValue,
}

impl Drop for JsBody {
    /// Tells the transport the body is no longer needed (`cancel()`, when it has one): an
    /// event stream may stay open after the response was read.
    fn drop(&mut self) {
        if let Some(cancel) = Reflect::get(&self.this, &JsValue::from_str("cancel"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
        {
            let _ = cancel.call0(&self.this);
        }
    }
}

impl ResponseBody for JsBody {
    fn next_chunk(&mut self) -> impl Future<Output = ClientResult<Option<Vec<u8>>>> {
        let called = match &self.read {
            Some(f) => Some(f.call0(&self.this).map_err(|e| failure(&e))),
            None => None,
        };
        async move {
            let Some(called) = called else {
                return Ok(None);
            };
            let v = JsIo::settle(called).await?;
            if v.is_undefined() || v.is_null() {
                return Ok(None);
            }
            bytes_of(&v, true, arg("io", "read"))
                .ok()
                .flatten()
                .map(Some)
                .ok_or_else(|| broken("a body chunk that is not a Uint8Array"))
        }
    }
}

impl HttpIo for JsIo {
    type Body = JsBody;

    fn post(
        &self,
        request: HttpRequest,
    ) -> impl Future<Output = ClientResult<HttpResponse<JsBody>>> {
        let called = self.function("post").map(|f| {
            let headers = Array::new();
            for (k, v) in &request.headers {
                let pair = Array::new();
                pair.push(&JsValue::from_str(k));
                pair.push(&JsValue::from_str(v));
                headers.push(&pair);
            }
            f.call2(&self.0, &JsValue::from_str(&request.body), &headers)
                .map_err(|e| failure(&e))
        });
        JsIo::response(called.and_then(|c| c))
    }

    fn get(&self, url: &str) -> impl Future<Output = ClientResult<HttpResponse<JsBody>>> {
        let called = self.function("get").map(|f| {
            f.call1(&self.0, &JsValue::from_str(url))
                .map_err(|e| failure(&e))
        });
        JsIo::response(called.and_then(|c| c))
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn endpoint(&self) -> Option<&str> {
        self.1.as_deref()
    }

    fn sends_authorization(&self) -> bool {
        self.2
    }
}

impl JsIo {
    /// The response object `io.post` or `io.get` resolved to: `{ status, contentType,
    /// sessionId, read }`.
    pub(super) async fn response(
        called: ClientResult<JsValue>,
    ) -> ClientResult<HttpResponse<JsBody>> {
        let response = JsIo::settle(called).await?;
        let field = |k: &str| Reflect::get(&response, &JsValue::from_str(k)).ok();
        let status = field("status")
            .and_then(|s| s.as_f64())
            .filter(|s| s.fract() == 0.0 && (0.0..1000.0).contains(s))
            .ok_or_else(|| broken("a response without a numeric status"))?
            as u16;
        Ok(HttpResponse {
            status,
            content_type: field("contentType").and_then(|v| v.as_string()),
            session_id: field("sessionId").and_then(|v| v.as_string()),
            www_authenticate: field("wwwAuthenticate").and_then(|v| v.as_string()),
            body: JsBody {
                read: field("read").and_then(|f| f.dyn_into::<Function>().ok()),
                this: response,
            },
        })
    }
}

/// The [`Rpc`] of one operation: the HTTP session or the SDK client, per the core's mode,
/// over the `io` object of that call. It owns what the operation's promise needs.
pub(super) struct CallRpc {
    pub(super) inner: Rc<Inner>,
    pub(super) io: JsIo,
}

impl CallRpc {
    /// The client the operation runs on.
    pub(super) fn client(&self) -> &SkillsClient {
        &self.inner.client
    }
}

impl Rpc for CallRpc {
    async fn call(&self, method: &str, params: Json) -> ClientResult<String> {
        match self.inner.mode.get() {
            Mode::Http => self.inner.session.rpc(&self.io).call(method, params).await,
            Mode::Sdk => self.io.request(method, params).await,
            Mode::None => Err(VerifyError::new(
                ErrorCode::InvalidArgument,
                format!("{method}: the client is not connected; connect or attach first"),
            )
            .into()),
        }
    }

    /// Over HTTP the result as read with the reply (a reply is read once); from an SDK client,
    /// its result's text read once.
    async fn call_read<T>(
        &self,
        method: &str,
        params: Json,
        read: impl FnOnce(&crate::json::Node<'_>) -> ClientResult<T>,
    ) -> ClientResult<T> {
        match self.inner.mode.get() {
            Mode::Http => {
                let rpc = self.inner.session.rpc(&self.io);
                rpc.call_read(method, params, read).await
            }
            _ => read(&crate::client::read_result(
                method,
                &self.call(method, params).await?,
            )?),
        }
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    async fn digest(&self, bytes: &[u8]) -> Option<String> {
        self.io.digest(bytes).await
    }
}
