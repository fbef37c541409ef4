//! Where the issuer's keys are: the metadata URLs of an issuer (RFC 8414 §3.1, OpenID Connect
//! Discovery 1.0 §4), the `jwks_uri` of a fetched metadata document (RFC 8414 §3.3: only when
//! its `issuer` is the configured one), and Cloudflare Access's certificate URL. Pure
//! functions over strings and fetched bytes.

use super::claims::{read_object, shown};
use super::error::KeySetError;
use crate::skill::value::Value;

/// The largest metadata document read, in bytes: 64 KiB (real ones are 1 to 5 KiB).
pub const MAX_METADATA_BYTES: usize = 64 * 1024;

/// The URLs to try, in order, for the metadata of `issuer` (MCP authorization, Authorization
/// Server Metadata Discovery, after RFC 8414 §3.1 and §5 and OpenID Connect Discovery 1.0
/// §4):
///
/// - without a path (`https://as.example`): `…/.well-known/oauth-authorization-server`,
///   then `…/.well-known/openid-configuration`;
/// - with a path (`https://as.example/tenant1`, a trailing `/` removed first): OAuth with
///   the path after the well-known segment, OpenID Connect the same way, then OpenID Connect
///   appended to the path.
///
/// The issuer must be an `https` URL without query or fragment (RFC 8414 §2; MCP: "All
/// authorization server endpoints MUST be served over HTTPS"); `http` is read for loopback
/// hosts only (`localhost`, `127.0.0.1`, `[::1]`), for local testing.
pub(crate) fn metadata_urls(issuer: &str) -> Result<Vec<String>, KeySetError> {
    let (origin, path) = split_url(issuer).map_err(|p| KeySetError::Invalid {
        what: "issuer",
        problem: p,
    })?;
    let path = path.trim_end_matches('/');
    const OAUTH: &str = "/.well-known/oauth-authorization-server";
    const OIDC: &str = "/.well-known/openid-configuration";
    Ok(if path.is_empty() {
        vec![format!("{origin}{OAUTH}"), format!("{origin}{OIDC}")]
    } else {
        vec![
            format!("{origin}{OAUTH}{path}"),
            format!("{origin}{OIDC}{path}"),
            format!("{origin}{path}{OIDC}"),
        ]
    })
}

/// The `jwks_uri` of a fetched metadata document, read only when the document is a JSON
/// object (no member named twice) whose `issuer` is exactly `issuer` (RFC 8414 §3.3: "If
/// these values are not identical, the data contained in the response MUST NOT be used";
/// OpenID Connect Discovery 1.0 §4.3 the same) and whose `jwks_uri` is an `https` URL (or
/// `http` on a loopback host, as for `metadata_urls`).
pub fn jwks_uri(metadata: &[u8], issuer: &str) -> Result<String, KeySetError> {
    let invalid = |problem: String| KeySetError::Invalid {
        what: "authorization server metadata",
        problem,
    };
    if metadata.len() > MAX_METADATA_BYTES {
        return Err(KeySetError::TooLarge {
            what: "authorization server metadata",
            len: metadata.len(),
            max: MAX_METADATA_BYTES,
        });
    }
    let doc = read_object(metadata).map_err(invalid)?;
    match doc.get("issuer") {
        Some(Value::String(i)) if i == issuer => {}
        Some(Value::String(i)) => {
            return Err(invalid(format!(
                "names the issuer {}, not the configured {} (RFC 8414 §3.3: it is not used)",
                shown(i),
                shown(issuer)
            )))
        }
        _ => return Err(invalid("has no \"issuer\" string".into())),
    }
    let uri = match doc.get("jwks_uri") {
        Some(Value::String(u)) => u.clone(),
        _ => {
            return Err(invalid(
                "has no \"jwks_uri\" string: configure the key set URL instead".into(),
            ))
        }
    };
    split_url(&uri).map_err(|p| invalid(format!("has a jwks_uri that {p}")))?;
    Ok(uri)
}

/// Cloudflare Access's key set URL for a team's issuer (`https://<team>.cloudflareaccess.com`):
/// `<issuer>/cdn-cgi/access/certs` (Cloudflare, Validate JWTs: Access signing keys).
pub fn access_certs_url(issuer: &str) -> String {
    format!("{}/cdn-cgi/access/certs", issuer.trim_end_matches('/'))
}

/// The origin (`scheme://authority`) and path of an absolute URL, or what is wrong with it.
fn split_url(url: &str) -> Result<(&str, &str), String> {
    let (scheme_len, loopback_only) = if url.starts_with("https://") {
        (8, false)
    } else if url.starts_with("http://") {
        (7, true)
    } else {
        return Err(format!("{} is not an https URL", shown(url)));
    };
    if url.contains(['?', '#']) {
        return Err(format!("{} has a query or fragment", shown(url)));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{} has whitespace in it", shown(url)));
    }
    let rest = &url[scheme_len..];
    let end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.is_empty() || authority.contains('@') {
        return Err(format!(
            "{} has no host (or has user information)",
            shown(url)
        ));
    }
    if loopback_only {
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next().map(|h| format!("[{h}]")),
            None => authority.split(':').next().map(str::to_owned),
        }
        .unwrap_or_default();
        if !matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]") {
            return Err(format!(
                "{} is not an https URL (http is read for loopback hosts only)",
                shown(url)
            ));
        }
    }
    Ok((&url[..scheme_len + end], &rest[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_urls_follow_the_mcp_order() {
        assert_eq!(
            metadata_urls("https://auth.example.com").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://auth.example.com/").unwrap(),
            metadata_urls("https://auth.example.com").unwrap()
        );
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant1/").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("http://127.0.0.1:9000").unwrap()[0],
            "http://127.0.0.1:9000/.well-known/oauth-authorization-server"
        );
        assert!(metadata_urls("http://[::1]:8/x").is_ok());
        for bad in [
            "http://auth.example.com",
            "ftp://auth.example.com",
            "https://auth.example.com?x=1",
            "https://auth.example.com/#f",
            "https://",
            "https://user@auth.example.com",
            "https://auth.example.com/a b",
            "auth.example.com",
        ] {
            assert!(metadata_urls(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn jwks_uri_only_from_the_configured_issuer() {
        let iss = "https://auth.example.com/tenant1";
        let doc = |i: &str, j: &str| {
            format!(r#"{{"issuer":"{i}","jwks_uri":"{j}","token_endpoint":"{i}/token"}}"#)
        };
        assert_eq!(
            jwks_uri(doc(iss, "https://keys.example.net/jwks").as_bytes(), iss).unwrap(),
            "https://keys.example.net/jwks"
        );
        // RFC 8414 §3.3: another issuer (even one character) is not used.
        let e = jwks_uri(
            doc("https://auth.example.com/tenant1/", "https://k/j").as_bytes(),
            iss,
        )
        .unwrap_err();
        assert!(e.to_string().contains("not the configured"), "{e}");
        assert!(jwks_uri(doc(iss, "http://keys.example.net/jwks").as_bytes(), iss).is_err());
        assert!(jwks_uri(br#"{"issuer":"https://auth.example.com/tenant1"}"#, iss).is_err());
        assert!(jwks_uri(br#"{"jwks_uri":"https://k/j"}"#, iss).is_err());
        assert!(jwks_uri(br#"[]"#, iss).is_err());
        let dup =
            format!(r#"{{"issuer":"{iss}","jwks_uri":"https://k/j","jwks_uri":"https://evil/j"}}"#);
        assert!(jwks_uri(dup.as_bytes(), iss).is_err());
        let big = vec![b' '; MAX_METADATA_BYTES + 1];
        assert!(matches!(
            jwks_uri(&big, iss),
            Err(KeySetError::TooLarge { .. })
        ));
    }

    #[test]
    fn access_certs() {
        assert_eq!(
            access_certs_url("https://acme.cloudflareaccess.com"),
            "https://acme.cloudflareaccess.com/cdn-cgi/access/certs"
        );
    }
}
