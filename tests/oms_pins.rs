//! Pins of OpenSSF Model Signing keys (`omsPins` in the `--pins` file): what a server that
//! changes the OMS signer of its skills after a host first saw them gets, on a well-known
//! source (the in-memory mirror of tests/wellknown.rs) and over MCP, through the `verify`
//! command's own code (`verify_command`, which the native and the npm command run), and the
//! pins file's reader against damaged or swapped pins. Bundles are made as
//! `model_signing sign key` makes them (tests/oms_attacks.rs; tests/oms.rs checks that
//! `model_signing` accepts that shape).

use crate::oms::Mcp;
use crate::oms_attacks::{bundle, files, key, resources_of, serve, statement};
use crate::wellknown::{Server, INDEX, ORIGIN};
use serde_json::Value as Json;
use skills_edge::catalog::oms::SIGNATURE_FILE;
use skills_edge::catalog::sign::{Envelope, SigningKey, Statement, Subject};
use skills_edge::client::block_on;
use skills_edge::client::http::HttpIo;
use skills_edge::command::args::VerifyArgs;
use skills_edge::command::verify::{verify_command, SignerFiles};
use skills_edge::host::signature::Signers;
use skills_edge::host::ErrorCode;
use skills_edge::skill::digest::digest_of;
use skills_edge::skill::revision::skill_revision;

const PUBLISHER: u8 = 71;
const OTHER_TRUSTED: u8 = 72;
const STRANGER: u8 = 73;

/// `code-review`'s files and a bundle over them by key `n`.
fn signed_by(n: u8) -> (Vec<(String, Vec<u8>)>, Vec<u8>) {
    let f = files();
    let b = bundle(&statement(&resources_of(&f)), &key(n));
    (f, b)
}

/// One run of `verify URL --json [--trust oms.pub]... --pins pins.json` against `io`, the
/// pins file holding `pins` (`None`: it does not exist yet): code-review's report line and
/// the pins written back.
fn run<H: HttpIo>(io: &H, url: &str, trusted: &[u8], pins: Option<&str>) -> (Json, String) {
    let trust: Vec<String> = trusted.iter().map(|n| key(*n).public().to_pem()).collect();
    run_trusting(io, url, &trust, pins)
}

/// [`run`] with the `--trust` files' texts given (PEM OMS keys, JWK DSSE keys).
fn run_trusting<H: HttpIo>(
    io: &H,
    url: &str,
    trust: &[String],
    pins: Option<&str>,
) -> (Json, String) {
    let mut args = vec![url.to_owned(), "--json".to_owned()];
    for _ in trust {
        args.extend(["--trust".to_owned(), "key".to_owned()]);
    }
    args.extend(["--pins".to_owned(), "pins.json".to_owned()]);
    let files = SignerFiles {
        trust: trust.to_vec(),
        pins: pins.map(str::to_owned),
    };
    let out = block_on(verify_command(
        &VerifyArgs::parse(&args).unwrap(),
        &files,
        io,
    ));
    assert!(out.exit_code < 2, "{}{}", out.stdout, out.stderr);
    let line = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .find(|l| l["name"] == "code-review")
        .unwrap();
    (line, out.pins.expect("--pins writes the pins back"))
}

/// A well-known mirror serving code-review signed by key `n` (`None`: no `skill.oms.sig`).
fn mirror(n: Option<u8>) -> Server {
    let server = Server::new();
    let (f, b) = signed_by(n.unwrap_or(PUBLISHER));
    serve(&server, &f, n.map(|_| b.as_slice()));
    server
}

/// An MCP server serving code-review signed by key `n` (`None`: no `skill.oms.sig`).
fn mcp(n: Option<u8>) -> Mcp {
    let (f, b) = signed_by(n.unwrap_or(PUBLISHER));
    Mcp::new(&f, n.map(|_| b.as_slice()))
}

/// The failed checks of a report line: (code, why).
fn failures(l: &Json) -> Vec<(String, String)> {
    l["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "failed")
        .map(|c| {
            (
                c["code"].as_str().unwrap_or_default().to_owned(),
                c["why"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[track_caller]
fn assert_changed(l: &Json) {
    assert_ne!(l["status"], "verified", "{l}");
    let f = failures(l);
    assert!(
        f.iter()
            .any(|(code, why)| code == "signer-changed"
                && why.contains(&key(PUBLISHER).public().hint())),
        "{l}"
    );
}

/// The OMS pins of an export: (origin, hint).
fn oms_pins(pins: &str) -> Vec<(String, String)> {
    let v: Json = serde_json::from_str(pins).unwrap();
    v["omsPins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["origin"].as_str().unwrap().to_owned(),
                p["hint"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_mirror_that_swaps_to_another_trusted_oms_key_after_first_use_is_refused_as_signer_changed() {
    let trusted = [PUBLISHER, OTHER_TRUSTED];
    let (l, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &trusted, None);
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(
        oms_pins(&pins),
        [(ORIGIN.to_owned(), key(PUBLISHER).public().hint())]
    );
    // The same source, now signing with the other trusted key: refused, the pin kept.
    let (l, after) = run(&mirror(Some(OTHER_TRUSTED)), INDEX, &trusted, Some(&pins));
    assert_changed(&l);
    assert_eq!(after, pins);
    // Back to the pinned key: verified again.
    let (l, _) = run(&mirror(Some(PUBLISHER)), INDEX, &trusted, Some(&pins));
    assert_eq!(l["status"], "verified", "{l}");
}

#[test]
fn an_mcp_server_that_swaps_to_another_trusted_oms_key_after_first_use_is_refused() {
    let url = format!("{ORIGIN}/mcp");
    let trusted = [PUBLISHER, OTHER_TRUSTED];
    let (l, pins) = run(&mcp(Some(PUBLISHER)), &url, &trusted, None);
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(
        l["signer"]["keyId"],
        format!("oms:{}", key(PUBLISHER).public().hint())
    );
    assert_eq!(
        oms_pins(&pins),
        [(ORIGIN.to_owned(), key(PUBLISHER).public().hint())]
    );
    let (l, _) = run(&mcp(Some(OTHER_TRUSTED)), &url, &trusted, Some(&pins));
    assert_changed(&l);
    // The MCP endpoint and the mirror of one origin share the pin.
    let (l, _) = run(&mirror(Some(OTHER_TRUSTED)), INDEX, &trusted, Some(&pins));
    assert_changed(&l);
}

#[test]
fn a_pinned_origin_that_drops_its_oms_signature_is_refused_as_signer_changed() {
    let (l, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    assert_eq!(l["status"], "verified", "{l}");
    // The pins file alone (no --trust): the files served without skill.oms.sig.
    let (l, _) = run(&mirror(None), INDEX, &[], Some(&pins));
    assert_changed(&l);
    let url = format!("{ORIGIN}/mcp");
    let (l, _) = run(&mcp(None), &url, &[], Some(&pins));
    assert_changed(&l);
}

#[test]
fn a_pinned_origin_signing_with_a_strangers_key_is_refused_and_its_own_key_verifies_by_the_pin() {
    let (_, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    // The imported pin checks the signature by itself: no --trust.
    for url in [INDEX.to_owned(), format!("{ORIGIN}/mcp")] {
        let (l, after) = if url == INDEX {
            run(&mirror(Some(PUBLISHER)), &url, &[], Some(&pins))
        } else {
            run(&mcp(Some(PUBLISHER)), &url, &[], Some(&pins))
        };
        assert_eq!(l["status"], "verified", "{url}: {l}");
        assert_eq!(l["signer"]["trust"], "pinned", "{l}");
        assert_eq!(after, pins);
        let (l, _) = if url == INDEX {
            run(&mirror(Some(STRANGER)), &url, &[], Some(&pins))
        } else {
            run(&mcp(Some(STRANGER)), &url, &[], Some(&pins))
        };
        assert_changed(&l);
    }
}

#[test]
fn a_refused_skill_pins_nothing_and_the_next_trusted_signer_pins_after_an_accepted_change() {
    // A first sight refused for another reason (a file added after signing) pins nothing.
    let server = Server::new();
    let (mut f, b) = signed_by(PUBLISHER);
    f.push(("references/added.md".into(), b"added\n".to_vec()));
    serve(&server, &f, Some(&b));
    let (l, pins) = run(&server, INDEX, &[PUBLISHER], None);
    assert_ne!(l["status"], "verified", "{l}");
    assert!(oms_pins(&pins).is_empty(), "{pins}");
    // Pinned, then the change accepted: the pin goes, and the new key pins on its next sight.
    let (_, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    let mut s = Signers::default();
    assert_eq!(s.import_pins(&pins), Ok(1));
    assert!(s.accept_signer_change(ORIGIN));
    let accepted = s.export_pins();
    assert!(oms_pins(&accepted).is_empty(), "{accepted}");
    let (l, after) = run(
        &mirror(Some(OTHER_TRUSTED)),
        INDEX,
        &[OTHER_TRUSTED],
        Some(&accepted),
    );
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(
        oms_pins(&after),
        [(ORIGIN.to_owned(), key(OTHER_TRUSTED).public().hint())]
    );
}

#[test]
fn a_pins_file_whose_oms_pin_holds_another_key_than_its_hint_names_is_refused() {
    let (_, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    let ours = key(PUBLISHER).public().to_pem();
    let theirs = key(STRANGER).public().to_pem();
    let json = |pem: &str| serde_json::to_string(pem).unwrap();
    let swapped_key = pins.replace(&json(&ours), &json(&theirs));
    let secret = key(PUBLISHER).to_pem();
    let with_secret = pins.replace(&json(&ours), &json(&secret));
    let upper = pins.replace(
        &key(PUBLISHER).public().hint(),
        &key(PUBLISHER).public().hint().to_uppercase(),
    );
    let two_blocks = pins.replace(&json(&ours), &json(&format!("{ours}{theirs}")));
    for (what, bad) in [
        ("a key swapped under the hint", swapped_key),
        ("a private key", with_secret),
        ("an upper-case hint", upper),
        ("two PEM blocks", two_blocks),
        (
            "no omsPins in version 2",
            pins.replace(",\"omsPins\":", ",\"x\":"),
        ),
    ] {
        let mut s = Signers::default();
        let e = s.import_pins(&bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{what}");
        assert!(!e.message.contains("PRIVATE"), "{what}: {}", e.message);
        assert_eq!(s.export_pins(), Signers::default().export_pins(), "{what}");
        // The command stops on it (exit 2) rather than run without the pin.
        let args = VerifyArgs::parse(&[
            INDEX.to_owned(),
            "--pins".to_owned(),
            "pins.json".to_owned(),
        ])
        .unwrap();
        let out = block_on(verify_command(
            &args,
            &SignerFiles {
                trust: vec![],
                pins: Some(bad.clone()),
            },
            &mirror(Some(STRANGER)),
        ));
        assert_eq!(out.exit_code, 2, "{what}: {}", out.stdout);
    }
    // A version 1 file (DSSE pins only) is still read.
    let mut s = Signers::default();
    assert_eq!(
        s.import_pins(r#"{"format":"skills-edge/pins","version":1,"pins":[]}"#),
        Ok(0)
    );
}

#[test]
fn a_bundle_whose_hint_is_a_megabyte_long_is_not_echoed_whole() {
    use crate::oms_attacks::bundle_raw;
    let f = files();
    let payload = serde_json::to_vec(&statement(&resources_of(&f))).unwrap();
    let mut b = bundle_raw(&payload, "application/vnd.in-toto+json", &key(STRANGER));
    let long = "f".repeat(900_000);
    b["verificationMaterial"]["publicKey"]["hint"] = Json::from(long.as_str());
    let sig = serde_json::to_vec(&b).unwrap();
    let (_, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    // Under a trust list (signer-untrusted), and from a pinned origin (signer-changed).
    for (trusted, pins) in [(&[PUBLISHER][..], None), (&[][..], Some(pins.as_str()))] {
        let server = Server::new();
        serve(&server, &f, Some(&sig));
        let (l, _) = run(&server, INDEX, trusted, pins);
        assert_ne!(l["status"], "verified", "{l}");
        let shown = l.to_string();
        assert!(
            shown.len() < 10_000,
            "{} bytes: {}",
            shown.len(),
            &shown[..300]
        );
    }
}

#[test]
fn a_bundle_whose_statement_names_a_megabyte_long_file_or_type_is_not_echoed_whole() {
    let f = files();
    let long = "a".repeat(600_000);
    let mut with_file = resources_of(&f);
    with_file.push((long.clone(), "00".repeat(32)));
    let mut typed = statement(&resources_of(&f));
    typed["predicateType"] = Json::from(long.as_str());
    for (what, st) in [
        ("a file name", statement(&with_file)),
        ("a predicate type", typed),
    ] {
        let sig = bundle(&st, &key(PUBLISHER));
        for url in [INDEX.to_owned(), format!("{ORIGIN}/mcp")] {
            let (l, _) = if url == INDEX {
                let server = Server::new();
                serve(&server, &f, Some(&sig));
                run(&server, &url, &[PUBLISHER], None)
            } else {
                run(&Mcp::new(&f, Some(&sig)), &url, &[PUBLISHER], None)
            };
            assert_ne!(l["status"], "verified", "{what}: {l}");
            let shown = l.to_string();
            assert!(shown.len() < 20_000, "{what} {url}: {} bytes", shown.len());
        }
    }
}

#[test]
fn a_bundle_whose_payload_type_is_a_megabyte_long_is_not_echoed_whole() {
    use crate::oms_attacks::bundle_raw;
    let f = files();
    let payload = serde_json::to_vec(&statement(&resources_of(&f))).unwrap();
    // payloadType is outside the signature: any server may set it.
    let mut b = bundle_raw(&payload, "application/vnd.in-toto+json", &key(PUBLISHER));
    let long = format!("\u{202e}{}", "P".repeat(900_000));
    b["dsseEnvelope"]["payloadType"] = Json::from(long.as_str());
    let sig = serde_json::to_vec(&b).unwrap();
    for url in [INDEX.to_owned(), format!("{ORIGIN}/mcp")] {
        let (l, _) = if url == INDEX {
            let server = Server::new();
            serve(&server, &f, Some(&sig));
            run(&server, &url, &[PUBLISHER], None)
        } else {
            run(&Mcp::new(&f, Some(&sig)), &url, &[PUBLISHER], None)
        };
        assert_ne!(l["status"], "verified", "{l}");
        let shown = l.to_string();
        assert!(shown.contains("payloadType"), "{}", &shown[..300]);
        assert!(shown.len() < 20_000, "{url}: {} bytes", shown.len());
    }
}

/// An MCP server that answers every request as `inner` does, except the `resources/read` of
/// `skill.oms.sig` after the first: a JSON-RPC error.
struct FailsSecondSignatureRead {
    inner: Mcp,
    reads: std::cell::Cell<u32>,
}

impl HttpIo for FailsSecondSignatureRead {
    type Body = crate::wellknown::Body;

    fn post(
        &self,
        request: skills_edge::client::http::HttpRequest,
    ) -> impl std::future::Future<
        Output = skills_edge::client::Result<skills_edge::client::http::HttpResponse<Self::Body>>,
    > {
        let body = request.body.clone();
        if body.contains("resources/read") && body.contains("skill.oms.sig") {
            self.reads.set(self.reads.get() + 1);
            if self.reads.get() > 1 {
                let id = serde_json::from_str::<Json>(&body).unwrap()["id"].clone();
                let reply = serde_json::json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32603, "message": "try again later"}});
                return std::future::ready(Ok(skills_edge::client::http::HttpResponse {
                    status: 200,
                    content_type: Some("application/json".to_owned()),
                    session_id: None,
                    www_authenticate: None,
                    body: crate::wellknown::Body(Some(reply.to_string().into_bytes())),
                }));
            }
        }
        // Every reply uncacheable (`ttlMs` 0), so the OMS check reads the file again.
        let mut reply = block_on(self.inner.post(request));
        if let Ok(r) = &mut reply
            && let Some(bytes) = &r.body.0
            && let Ok(mut v) = serde_json::from_slice::<Json>(bytes)
        {
            no_ttl(&mut v);
            r.body.0 = Some(v.to_string().into_bytes());
        }
        std::future::ready(reply)
    }

    fn get(
        &self,
        url: &str,
    ) -> impl std::future::Future<
        Output = skills_edge::client::Result<skills_edge::client::http::HttpResponse<Self::Body>>,
    > {
        self.inner.get(url)
    }

    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// Sets every `ttlMs` of `v` to 0.
fn no_ttl(v: &mut Json) {
    match v {
        Json::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "ttlMs" {
                    *x = Json::from(0);
                } else {
                    no_ttl(x);
                }
            }
        }
        Json::Array(a) => a.iter_mut().for_each(no_ttl),
        _ => {}
    }
}

#[test]
fn an_mcp_server_that_fails_the_signature_read_of_the_oms_check_does_not_get_the_skill_verified() {
    // A stranger's bundle: the OMS check, had it run, refuses it.
    let (f, b) = signed_by(STRANGER);
    let io = FailsSecondSignatureRead {
        inner: Mcp::new(&f, Some(&b)),
        reads: std::cell::Cell::new(0),
    };
    let (l, _) = run(&io, &format!("{ORIGIN}/mcp"), &[PUBLISHER], None);
    assert!(
        io.reads.get() >= 2,
        "the probe did not reach the OMS read: {l}"
    );
    assert_ne!(l["status"], "verified", "{l}");
}

/// A well-known mirror serving code-review with `skill.oms.sig` by key `oms` (`None`: none),
/// its DSSE envelope signed
/// by `dsse` (catalog `acme`) over the files served, its key in the source's `keys.json`.
fn dsse_mirror(dsse: &SigningKey, oms: Option<u8>) -> Server {
    let server = Server::new();
    let (mut f, b) = signed_by(oms.unwrap_or(PUBLISHER));
    serve(&server, &f, oms.map(|_| b.as_slice()));
    if oms.is_some() {
        // The envelope covers every served file, the bundle too, as the build signs.
        f.push((SIGNATURE_FILE.into(), b));
    }
    let digests: Vec<(&str, String)> = f.iter().map(|(p, b)| (p.as_str(), digest_of(b))).collect();
    let statement = Statement {
        skill: "skill://code-review/SKILL.md".into(),
        revision: skill_revision(digests.iter().map(|(p, d)| (*p, d.as_str()))).unwrap(),
        catalog: "acme".into(),
        subjects: digests
            .iter()
            .map(|(p, d)| Subject {
                name: format!("skill://code-review/{p}"),
                sha256: d["sha256:".len()..].to_owned(),
            })
            .collect(),
    };
    server.put(
        &format!("{ORIGIN}/.well-known/agent-skills/code-review.dsse.json"),
        "application/json",
        Envelope::sign(&statement, dsse).to_json().into_bytes(),
    );
    let jwk: Json = serde_json::from_str(&dsse.public().to_jwk()).unwrap();
    server.put(
        &format!("{ORIGIN}/.well-known/agent-skills/keys.json"),
        "application/json",
        serde_json::json!({ "keys": [jwk] })
            .to_string()
            .into_bytes(),
    );
    server.edit_index(|i| {
        for s in i["skills"].as_array_mut().unwrap() {
            if s["name"] == "code-review" {
                s["_meta"]["io.github.skills-edge/dsse"] =
                    serde_json::json!("/.well-known/agent-skills/code-review.dsse.json");
            }
        }
    });
    server
}

#[test]
fn a_server_swapping_an_oms_pinned_skill_for_one_dsse_signed_by_its_own_key_gets_no_dsse_pin() {
    let (l, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], None);
    assert_eq!(l["status"], "verified", "{l}");
    // The same origin now serves the skill DSSE-signed by the attacker's key, without
    // skill.oms.sig: refused, and the pins file is left byte for byte.
    let attacker = SigningKey::from_seed([74; 32]);
    let (l, after) = run(&dsse_mirror(&attacker, None), INDEX, &[], Some(&pins));
    assert_changed(&l);
    assert_eq!(l["signer"]["keyId"], attacker.public().key_id(), "{l}");
    assert_eq!(after, pins);
    // The publisher is back: verified, as before the attack.
    let (l, again) = run(&mirror(Some(PUBLISHER)), INDEX, &[PUBLISHER], Some(&after));
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(again, pins);
    // Also with the attacker's DSSE key beside an OMS signature by a stranger's key, on first
    // sight of the origin: refused, and nothing pinned in either format.
    let (l, first) = run(
        &dsse_mirror(&attacker, Some(STRANGER)),
        INDEX,
        &[PUBLISHER],
        None,
    );
    assert_ne!(l["status"], "verified", "{l}");
    let v: Json = serde_json::from_str(&first).unwrap();
    assert_eq!(v["pins"], serde_json::json!([]), "{first}");
    assert!(oms_pins(&first).is_empty(), "{first}");
}

#[test]
fn a_url_spelling_the_pinned_ipv4_host_another_way_does_not_escape_the_pin() {
    let trusted = [PUBLISHER, OTHER_TRUSTED];
    let (l, pins) = run(&mirror(Some(PUBLISHER)), INDEX, &trusted, None);
    assert_eq!(l["status"], "verified", "{l}");
    // 127.0.0.1 as `new URL` reads these spellings of it: the pinned origin.
    for host in ["127.1", "0x7f.0.0.1", "2130706433", "127.000.000.001"] {
        let url = format!("http://{host}:8787/mcp");
        let (l, after) = run(&mcp(Some(OTHER_TRUSTED)), &url, &trusted, Some(&pins));
        assert_changed(&l);
        assert_eq!(after, pins, "{url}");
    }
}

/// An MCP server serving code-review without `skill.oms.sig`, DSSE-signed by `dsse` (the
/// catalog's envelopes and announced signer, as `pack --sign` makes them).
fn dsse_mcp(dsse: &SigningKey) -> Mcp {
    let mut tree = skills_edge::catalog::compile::SourceTree::default();
    for (p, b) in files() {
        tree.add_file(&format!("code-review/{p}"), b);
    }
    let mut c = skills_edge::catalog::compile::compile(tree).unwrap();
    c.sign(
        dsse,
        &skills_edge::catalog::compile::signing::CatalogId::new("--catalog-id", "acme").unwrap(),
    );
    let bytes = skills_edge::catalog::pack::encode(&c, None);
    let catalog = skills_edge::catalog::Catalog::from_bytes(bytes).unwrap();
    Mcp(crate::common::responder_over(
        std::sync::Arc::new(catalog),
        50,
    ))
}

#[test]
fn an_mcp_server_swapping_an_oms_pinned_skill_for_its_own_dsse_key_gets_no_dsse_pin() {
    let url = format!("{ORIGIN}/mcp");
    let (l, pins) = run(&mcp(Some(PUBLISHER)), &url, &[PUBLISHER], None);
    assert_eq!(l["status"], "verified", "{l}");
    let attacker = SigningKey::from_seed([75; 32]);
    let (l, after) = run(&dsse_mcp(&attacker), &url, &[], Some(&pins));
    assert_changed(&l);
    assert_eq!(l["signer"]["keyId"], attacker.public().key_id(), "{l}");
    assert_eq!(after, pins);
    let (l, again) = run(&mcp(Some(PUBLISHER)), &url, &[PUBLISHER], Some(&after));
    assert_eq!(l["status"], "verified", "{l}");
    assert_eq!(again, pins);
}

#[test]
fn a_server_swapping_an_oms_pinned_skill_for_another_trusted_dsse_key_gets_no_dsse_pin() {
    // The host trusts two publishers' DSSE keys and the publisher's OMS key; the origin is
    // pinned to that OMS key. A trusted key pinned on first use is reported `trusted`.
    let other = SigningKey::from_seed([76; 32]);
    let trust = [
        key(PUBLISHER).public().to_pem(),
        other.public().to_jwk(),
        SigningKey::from_seed([77; 32]).public().to_jwk(),
    ];
    let (l, pins) = run_trusting(&mirror(Some(PUBLISHER)), INDEX, &trust, None);
    assert_eq!(l["status"], "verified", "{l}");
    let (l, after) = run_trusting(&dsse_mirror(&other, None), INDEX, &trust, Some(&pins));
    assert_changed(&l);
    assert_eq!(l["signer"]["trust"], "trusted", "{l}");
    assert_eq!(after, pins);
}

#[test]
fn a_skill_refused_by_its_oms_signature_pins_its_dsse_key_only_once_it_passes() {
    // code-review is refused (its OMS signature is a stranger's, with the publisher's OMS key
    // trusted); the listing's other skills are unsigned, so nothing passes with the DSSE key,
    // and nothing is pinned. With the OMS signature the publisher's, both formats pin.
    let dsse = SigningKey::from_seed([78; 32]);
    let (l, pins) = run(
        &dsse_mirror(&dsse, Some(STRANGER)),
        INDEX,
        &[PUBLISHER],
        None,
    );
    assert_ne!(l["status"], "verified", "{l}");
    let v: Json = serde_json::from_str(&pins).unwrap();
    assert_eq!(v["pins"], serde_json::json!([]), "{pins}");
    let (l, pins) = run(
        &dsse_mirror(&dsse, Some(PUBLISHER)),
        INDEX,
        &[PUBLISHER],
        None,
    );
    assert_eq!(l["status"], "verified", "{l}");
    let v: Json = serde_json::from_str(&pins).unwrap();
    assert_eq!(v["pins"][0]["keyId"], dsse.public().key_id(), "{pins}");
    assert_eq!(
        oms_pins(&pins),
        [(ORIGIN.to_owned(), key(PUBLISHER).public().hint())]
    );
}
