//! The Fetch API side of `SkillsServer.fetch` and `handleHttp`: a request's head and headers,
//! its body read within a limit, the platform's `Response`, and the caller's own answers.

use super::*;

/// The MCP request headers `handleHttp` reads, by their lowercase names.
pub(super) const MCP_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Reads the headers `names` from a `Headers` object (anything with a `get` method) or a
/// plain record keyed by lowercase names; absent, `null` and `undefined` values are `None`.
pub(super) fn header_values<const N: usize>(
    headers: &JsValue,
    names: [&str; N],
    a: Arg,
) -> Result<[Option<String>; N], JsValue> {
    let mut out = [const { None }; N];
    if headers.is_undefined() || headers.is_null() {
        return Ok(out);
    }
    if !headers.is_object() {
        return Err(a.wrong(
            "a Headers object or a record of lowercase header names",
            headers,
        ));
    }
    let getter = get(headers, "get", a)?.dyn_into::<Function>().ok();
    for (slot, name) in out.iter_mut().zip(names) {
        let v = match &getter {
            Some(f) => f.call1(headers, &JsValue::from_str(name)).map_err(|_| {
                a.error(
                    ErrorCode::InvalidArgument,
                    format_args!("threw from get({name:?})"),
                )
            })?,
            None => get(headers, name, a)?,
        };
        if v.is_undefined() || v.is_null() {
            continue;
        }
        *slot = Some(v.as_string().ok_or_else(|| {
            a.error(
                ErrorCode::InvalidArgument,
                format_args!("{name} must be a string, got {}", type_name(&v)),
            )
        })?);
    }
    Ok(out)
}

/// The head of a Fetch API `Request`, read once (its method, URL and the headers the HTTP
/// rules read, [`Head::HEADERS`]), kept while the body is read.
pub(super) struct FetchHead {
    method: String,
    url: String,
    headers: [Option<String>; Head::HEADERS.len()],
}

impl FetchHead {
    pub(super) fn read(request: &JsValue, a: Arg) -> Result<FetchHead, JsValue> {
        let expected = "a Request (the Fetch API's, with method, url and headers)";
        if !request.is_object() {
            return Err(a.wrong(expected, request));
        }
        let text = |key: &str| -> Result<String, JsValue> {
            get(request, key, a)?
                .as_string()
                .ok_or_else(|| a.wrong(expected, request))
        };
        let method = text("method")?;
        let url = text("url")?;
        let headers = get(request, "headers", a)?;
        if !headers.is_object() {
            return Err(a.wrong(expected, request));
        }
        let headers = header_values(&headers, Head::HEADERS, a.with("request.headers"))?;
        Ok(FetchHead {
            method,
            url,
            headers,
        })
    }

    pub(super) fn head(&self) -> Head<'_> {
        Head::from_url(
            &self.method,
            &self.url,
            self.headers.each_ref().map(Option::as_deref),
        )
    }
}

/// What reading a request body gave.
pub(super) enum FetchBody {
    /// All of it, within the limit.
    Complete(Vec<u8>),
    /// Longer than the limit: reading stopped there and the stream was cancelled.
    TooLarge,
    /// The platform could not deliver it (the client went away, the body was used already).
    Unreadable,
}

/// Reads `request.body` (a `ReadableStream` of bytes, or `null` for no body), keeping at most
/// `limit` bytes.
pub(super) async fn read_body(request: JsValue, limit: usize) -> FetchBody {
    let Ok(stream) = Reflect::get(&request, &JsValue::from_str("body")) else {
        return FetchBody::Unreadable;
    };
    if stream.is_null() || stream.is_undefined() {
        return FetchBody::Complete(Vec::new());
    }
    let reader = Reflect::get(&stream, &JsValue::from_str("getReader"))
        .and_then(|f| f.dyn_into::<Function>())
        .and_then(|f| f.call0(&stream));
    let Ok(reader) = reader else {
        return FetchBody::Unreadable;
    };
    let method = |name: &str| {
        Reflect::get(&reader, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
    };
    let (Some(read), Some(cancel)) = (method("read"), method("cancel")) else {
        return FetchBody::Unreadable;
    };
    let mut body = Vec::new();
    loop {
        let chunk = match read
            .call0(&reader)
            .map(|p| JsFuture::from(Promise::from(p)))
        {
            Ok(next) => next.await,
            Err(e) => Err(e),
        };
        let Ok(chunk) = chunk else {
            return FetchBody::Unreadable;
        };
        let done = Reflect::get(&chunk, &JsValue::from_str("done")).unwrap_or(JsValue::TRUE);
        if done.is_truthy() {
            return FetchBody::Complete(body);
        }
        let value = Reflect::get(&chunk, &JsValue::from_str("value")).unwrap_or_default();
        // Read as every byte argument is (`convert::js_bytes`: the built-in length, a copy
        // that cannot trap), so a chunk whose `length` is shadowed or changes is refused.
        let Ok(Some(bytes)) = js_bytes(&value, false, arg("SkillsServer.fetch", "request")) else {
            let _ = cancel.call0(&reader);
            return FetchBody::Unreadable;
        };
        if body.len().saturating_add(bytes.len()) > limit {
            // Nothing more is read; the platform closes the stream.
            let _ = cancel.call0(&reader);
            return FetchBody::TooLarge;
        }
        match bytes.to_vec() {
            Ok(chunk) => body.extend_from_slice(&chunk),
            Err(_) => {
                let _ = cancel.call0(&reader);
                return FetchBody::Unreadable;
            }
        }
    }
}

/// The platform's `Response` for `r` (status, headers, body; no body when it is empty). A
/// response whose middle is an asset gets its fault answer: this server has no assets.
pub(super) fn platform_response(r: Response) -> Result<JsValue, JsValue> {
    let r = match r.splice {
        Some(splice) => splice.fault,
        None => r,
    };
    let headers = Array::new();
    for (name, value) in &r.headers {
        headers.push(&Array::of2(
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        ));
    }
    let init = Object::new();
    Reflect::set(&init, &"status".into(), &r.status.into())?;
    Reflect::set(&init, &"headers".into(), &headers)?;
    let body: JsValue = if r.body.is_empty() {
        JsValue::NULL
    } else {
        Uint8Array::from(r.body.as_slice()).into()
    };
    let ctor = Reflect::get(&js_sys::global(), &"Response".into())?.dyn_into::<Function>()?;
    Reflect::construct(&ctor, &Array::of2(&body, &init))
}

/// The caller's own answer to a message, from `own(text)`: `undefined` (or `null`) leaves the
/// message to this server; an `HttpReply` (`status`, and `body`, JSON text, unless it is 202)
/// is sent with the headers every response carries.
pub(super) fn own_reply(own: &Function, body: &[u8], a: Arg) -> Result<Option<Response>, JsValue> {
    let text = String::from_utf8_lossy(body);
    let reply = own.call1(&JsValue::NULL, &JsValue::from_str(&text))?;
    if reply.is_undefined() || reply.is_null() {
        return Ok(None);
    }
    let expected = "an HttpReply ({ status, body? }) or undefined";
    let status = get(&reply, "status", a)?
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (200.0..=599.0).contains(n))
        .ok_or_else(|| a.wrong(expected, &reply))? as u16;
    let body = get(&reply, "body", a)?;
    let mut r = Response {
        status,
        headers: Vec::new(),
        body: Vec::new(),
        splice: None,
    };
    if !body.is_undefined() {
        let text = body.as_string().ok_or_else(|| a.wrong(expected, &reply))?;
        r.headers
            .push(("content-type", "application/json".to_owned()));
        r.body = text.into_bytes();
    }
    Ok(Some(r))
}
