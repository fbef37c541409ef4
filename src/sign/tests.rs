//! Tests of `sign`.

use super::*;

// RFC 8037 Appendix A.1–A.3: the Ed25519 key, and its thumbprint.
const RFC8037_SECRET: &str = r#"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;
const RFC8037_PUBLIC: &str =
    r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#;

#[test]
fn rfc8037_key_thumbprint_and_signature() {
    let key = SigningKey::from_jwk(RFC8037_SECRET).unwrap();
    let public = PublicKey::from_jwk(RFC8037_PUBLIC).unwrap();
    assert_eq!(key.public(), &public);
    assert_eq!(
        public.key_id(),
        "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    );
    // A.4: the JWS signing input and its signature.
    let input = b"eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
    let sig = URL_SAFE_NO_PAD
            .decode("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg")
            .unwrap();
    assert_eq!(key.sign(input).to_vec(), sig);
    assert!(public.verifies(input, &sig));
    assert!(!public.verifies(
        b"eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmC",
        &sig
    ));
}

#[test]
fn jwk_round_trip_and_refusals() {
    let key = SigningKey::from_seed([7; 32]);
    let again = SigningKey::from_jwk(&key.to_jwk()).unwrap();
    assert_eq!(again.public(), key.public());
    assert_eq!(
        PublicKey::from_jwk(&key.public().to_jwk()).unwrap(),
        *key.public()
    );
    let secret_as_public = PublicKey::from_jwk(&key.to_jwk()).unwrap_err();
    assert!(secret_as_public.message.contains("holds a secret"));
    let public_as_secret = SigningKey::from_jwk(&key.public().to_jwk()).unwrap_err();
    assert!(public_as_secret.message.contains("no secret"));
    for bad in [
        "",
        "[]",
        r#"{"kty":"EC","crv":"P-256","x":"AA"}"#,
        r#"{"kty":"OKP","crv":"X25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
        r#"{"kty":"OKP","crv":"Ed25519","x":"short"}"#,
        r#"{"kty":"OKP","crv":"Ed25519"}"#,
        r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo=="}"#,
    ] {
        assert_eq!(
            PublicKey::from_jwk(bad).unwrap_err().fault,
            SignatureFault::Key,
            "{bad}"
        );
    }
    // A damaged secret file: x that is not d's public key.
    let mismatched = format!(
            "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{}\",\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}}",
            URL_SAFE_NO_PAD.encode([9u8; 32])
        );
    assert!(SigningKey::from_jwk(&mismatched)
        .unwrap_err()
        .message
        .contains("damaged"));
    // The all-zero seed is refused, not a panic.
    let zero = format!(
        "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{}\"}}",
        URL_SAFE_NO_PAD.encode([0u8; 32])
    );
    let e = SigningKey::from_jwk(&zero).unwrap_err();
    assert_eq!(e.fault, SignatureFault::Key);
    assert!(e.message.contains("all zeros"), "{}", e.message);
    assert!(
        !SigningKey::usable_seed(&[0; 32])
            && SigningKey::usable_seed(
                &[0; 31]
                    .into_iter()
                    .chain([1])
                    .collect::<Vec<_>>()
                    .try_into()
                    .unwrap()
            )
    );
}

#[test]
fn messages_never_quote_a_secret() {
    let d = URL_SAFE_NO_PAD.encode([42u8; 32]);
    for text in [
        format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}\",\"x\":1}}"),
        format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}\""),
        format!("{{\"kty\":\"RSA\",\"d\":\"{d}\"}}"),
        format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"{d}x\"}}"),
    ] {
        let e = SigningKey::from_jwk(&text).unwrap_err();
        assert!(!e.message.contains(&d), "{}", e.message);
        assert!(!format!("{e:?}").contains(&d));
    }
    let key = SigningKey::from_seed([42; 32]);
    assert!(!format!("{key:?}").contains(&d));
}

#[test]
fn pae_matches_the_dsse_test_vector() {
    assert_eq!(
        pae("http://example.com/HelloWorld", b"hello world"),
        b"DSSEv1 29 http://example.com/HelloWorld 11 hello world".to_vec()
    );
    assert_eq!(pae("", b""), b"DSSEv1 0  0 ".to_vec());
}

fn statement() -> Statement {
    Statement {
        skill: "skill://code-review/SKILL.md".into(),
        revision: "sha256:00".into(),
        catalog: "acme".into(),
        subjects: vec![
            Subject {
                name: "skill://code-review/SKILL.md".into(),
                sha256: "ab".repeat(32),
            },
            Subject {
                name: "skill://code-review/references/\"q\".md".into(),
                sha256: "cd".repeat(32),
            },
        ],
    }
}

#[test]
fn sign_then_verify_and_every_tampering_fails() {
    let key = SigningKey::from_seed([1; 32]);
    let env = Envelope::sign(&statement(), &key);
    let parsed = Envelope::parse(env.to_json().as_bytes()).unwrap();
    assert_eq!(parsed, env);
    assert_eq!(parsed.verify(key.public()).unwrap(), statement());

    let other = SigningKey::from_seed([2; 32]);
    assert_eq!(
        parsed.verify(other.public()).unwrap_err().fault,
        SignatureFault::NoSignatureByKey
    );
    let mut t = parsed.clone();
    t.payload_type = "application/json".into();
    assert_eq!(
        t.verify(key.public()).unwrap_err().fault,
        SignatureFault::PayloadType
    );
    let mut t = parsed.clone();
    let at = t.payload.len() / 2;
    t.payload[at] ^= 1;
    assert_eq!(
        t.verify(key.public()).unwrap_err().fault,
        SignatureFault::BadSignature
    );
    let mut t = parsed.clone();
    t.signatures[0].sig[0] ^= 1;
    assert_eq!(
        t.verify(key.public()).unwrap_err().fault,
        SignatureFault::BadSignature
    );
    let mut t = parsed.clone();
    t.signatures[0].keyid.clear();
    assert_eq!(
        t.verify(key.public()).unwrap_err().fault,
        SignatureFault::NoSignatureByKey
    );
    // Another key's valid signature beside the right one does not hide it.
    let mut t = parsed.clone();
    t.signatures.insert(
        0,
        Envelope::sign(&statement(), &other).signatures[0].clone(),
    );
    assert!(t.verify(key.public()).is_ok());
}

#[test]
fn either_base64_alphabet_is_read() {
    let key = SigningKey::from_seed([3; 32]);
    let env = Envelope::sign(&statement(), &key);
    let url = format!(
            "{{\"payload\":\"{}\",\"payloadType\":\"{}\",\"signatures\":[{{\"keyid\":\"{}\",\"sig\":\"{}\"}}],\"extra\":1}}",
            URL_SAFE_NO_PAD.encode(&env.payload),
            PAYLOAD_TYPE,
            key.public().key_id(),
            URL_SAFE_NO_PAD.encode(&env.signatures[0].sig)
        );
    assert_eq!(Envelope::parse(url.as_bytes()).unwrap(), env);
}

/// The record reader: unknown fields ignored (also when given twice) but checked as JSON,
/// a known field given twice refused, `null` for an optional field; an array where an
/// envelope, a statement or a key is expected is refused.
#[test]
fn records_are_objects_with_each_known_field_once() {
    let key = SigningKey::from_seed([3; 32]);
    let env = Envelope::sign(&statement(), &key);
    let (payload, sig) = (
        STANDARD_PADDED.encode(&env.payload),
        STANDARD_PADDED.encode(&env.signatures[0].sig),
    );
    let id = key.public().key_id();
    let read = |text: String| Envelope::parse(text.as_bytes());
    let object = read(format!(
        r#"{{"x":1,"signatures":[{{"sig":"{sig}","keyid":"{id}","x":[]}}],"x":{{}},"payloadType":"{PAYLOAD_TYPE}","payload":"{payload}"}}"#
    ));
    assert_eq!(object.unwrap(), env);
    let no_keyid = read(format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"keyid":null,"sig":"{sig}"}}]}}"#
        ))
        .unwrap();
    assert_eq!(no_keyid.signatures[0].keyid, "");
    for bad in [
        format!(r#"["{payload}","{PAYLOAD_TYPE}",[["{id}","{sig}"]]]"#),
        format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[["{id}","{sig}"]]}}"#
        ),
        format!(r#"["{payload}","{PAYLOAD_TYPE}"]"#),
        format!(r#"["{payload}","{PAYLOAD_TYPE}",[],1]"#),
        format!(r#"["{payload}","{PAYLOAD_TYPE}",[["{sig}"]]]"#),
        format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[],"x":[1,]}}"#
        ),
        format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"sig":"{sig}","sig":"{sig}"}}]}}"#
        ),
        format!(r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":{{}}}}"#),
        format!(r#"{{"payload":1,"payloadType":"{PAYLOAD_TYPE}","signatures":[]}}"#),
        format!(r#""{payload}""#),
    ] {
        let e = read(bad.clone()).unwrap_err();
        assert_eq!(e.fault, SignatureFault::Envelope, "{bad}");
        assert!(
            e.message
                .starts_with("the signature envelope is not DSSE JSON: "),
            "{}",
            e.message
        );
    }
    let e = read(format!(
            r#"{{"payload":"{payload}","payloadType":"{PAYLOAD_TYPE}","signatures":[{{"keyid":"{id}","sig":"{sig}"}}],"payload":"{payload}"}}"#
        ))
        .unwrap_err();
    assert!(
        e.message.contains("duplicate field `payload`"),
        "{}",
        e.message
    );

    // Keys: the same rules; a JWK is an object (RFC 7517 §4), never an array.
    let public = key.public().to_jwk();
    let x = URL_SAFE_NO_PAD.encode(key.public().as_bytes());
    assert_eq!(
        PublicKey::from_jwk(&public.replace("{", r#"{"use":1,"use":2,"#)).unwrap(),
        *key.public()
    );
    for bad in [
        format!(r#"["OKP","Ed25519","{x}",null]"#),
        format!(r#"["OKP","Ed25519","{x}"]"#),
        public.replace("{", r#"{"kty":"OKP","#),
        public.replace("\"kty\":\"OKP\"", "\"kty\":1"),
    ] {
        assert_eq!(
            PublicKey::from_jwk(&bad).unwrap_err().fault,
            SignatureFault::Key,
            "{bad}"
        );
    }
}

/// A signer who writes an in-toto statement in serde's array form (one item per field)
/// and signs it: the signature verifies, the statement is refused.
#[test]
fn a_signer_that_signs_a_statement_written_as_an_array_is_refused() {
    let key = SigningKey::from_seed([4; 32]);
    let object = statement().to_json();
    let good = Envelope::sign(&statement(), &key);
    assert_eq!(good.verify(key.public()).unwrap(), statement());
    let array = format!(
        r#"["{STATEMENT_TYPE}",[["skill://code-review/SKILL.md",["{}"]]],"{PREDICATE_TYPE}",["skill://code-review/SKILL.md","sha256:00","acme"]]"#,
        "ab".repeat(32)
    );
    let nested = object.replace(
        r#"{"sha256":"abababababababababababababababababababababababababababababababab"}"#,
        &format!(r#"["{}"]"#, "ab".repeat(32)),
    );
    assert_ne!(nested, object);
    for payload in [array, nested] {
        let signed = Envelope {
            payload_type: PAYLOAD_TYPE.into(),
            signatures: vec![EnvelopeSignature {
                keyid: key.public().key_id().into(),
                sig: key.sign(&pae(PAYLOAD_TYPE, payload.as_bytes())).to_vec(),
            }],
            payload: payload.into_bytes(),
        };
        let e = signed.verify(key.public()).unwrap_err();
        assert_eq!(e.fault, SignatureFault::Statement, "{}", e.message);
        assert!(e.message.contains("not an object"), "{}", e.message);
    }
}

#[test]
fn malformed_envelopes_and_statements_are_refused() {
    for bad in [
        &b"{}"[..],
        b"null",
        b"{\"payload\":\"e30=\",\"payloadType\":\"x\"}",
        b"{\"payload\":\"e30=\",\"payloadType\":\"x\",\"signatures\":[{}]}",
        b"{\"payload\":\"!!\",\"payloadType\":\"x\",\"signatures\":[]}",
        b"{\"payload\":\"e30=\",\"payload\":\"e30=\",\"payloadType\":\"x\",\"signatures\":[]}",
    ] {
        assert_eq!(
            Envelope::parse(bad).unwrap_err().fault,
            SignatureFault::Envelope
        );
    }
    let huge = vec![b' '; MAX_ENVELOPE_BYTES + 1];
    assert_eq!(
        Envelope::parse(&huge).unwrap_err().fault,
        SignatureFault::Envelope
    );

    let good = statement().to_json();
    assert_eq!(Statement::parse(good.as_bytes()).unwrap(), statement());
    for bad in [
        good.replace(STATEMENT_TYPE, "https://in-toto.io/Statement/v0.1"),
        good.replace(PREDICATE_TYPE, "https://slsa.dev/provenance/v1"),
        good.replace(&"ab".repeat(32), &"AB".repeat(32)),
        good.replace("\"sha256\":", "\"sha512\":"),
        good.replace("references/\\\"q\\\".md", "SKILL.md"),
        good.replace("\"catalog\":\"acme\"", "\"catalog\":1"),
        good.replace("{\"skill\":", "{\"skill\":\"x\",\"skill\":"),
    ] {
        assert_eq!(
            Statement::parse(bad.as_bytes()).unwrap_err().fault,
            SignatureFault::Statement,
            "{bad}"
        );
    }

    // Bytes that are not UTF-8 (inside a string or outside one) are refused, naming where.
    let mut latin1 = good.clone().into_bytes();
    let at = good.find("acme").unwrap();
    latin1[at] = 0xe9;
    let e = Statement::parse(&latin1).unwrap_err();
    assert_eq!(e.fault, SignatureFault::Statement);
    assert!(
        e.message.contains(&format!("byte {at} is not valid UTF-8")),
        "{}",
        e.message
    );
    let e = Envelope::parse(b"{\"payload\":\"e30=\"\xff}").unwrap_err();
    assert_eq!(e.fault, SignatureFault::Envelope);
    assert!(
        e.message.contains("not UTF-8 text (byte 17"),
        "{}",
        e.message
    );
}
