//! HTTP/1.1 keep-alive load generator: `C` connections (one thread each) send the same
//! request back to back for a warm-up period and then for the measured period, and report
//! one JSON line: requests, requests/s, latency percentiles and status counts.
//!
//! Usage: `skills-edge-loadgen --addr 127.0.0.1:PORT --request FILE
//!         [--connections 8] [--warmup 2] [--seconds 10]`
//! where FILE holds the raw request head and body (`\r\n` line ends, `Connection: keep-alive`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const WARMING: u8 = 0;
const MEASURING: u8 = 1;
const DONE: u8 = 2;

struct Args {
    addr: String,
    request: Vec<u8>,
    connections: usize,
    warmup: f64,
    seconds: f64,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut addr = None;
    let mut request = None;
    let (mut connections, mut warmup, mut seconds) = (8usize, 2.0f64, 10.0f64);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--addr" => addr = Some(value),
            "--request" => {
                request = Some(std::fs::read(&value).map_err(|e| format!("{value}: {e}"))?)
            }
            "--connections" => connections = value.parse().map_err(|_| "bad --connections")?,
            "--warmup" => warmup = value.parse().map_err(|_| "bad --warmup")?,
            "--seconds" => seconds = value.parse().map_err(|_| "bad --seconds")?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(Args {
        addr: addr.ok_or("--addr is required")?,
        request: request.ok_or("--request is required")?,
        connections,
        warmup,
        seconds,
    })
}

/// Reads one response; returns its status.
fn read_response(r: &mut BufReader<TcpStream>, line: &mut String) -> std::io::Result<u16> {
    line.clear();
    r.read_line(line)?;
    let status: u16 = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
    let mut len = 0usize;
    let mut chunked = false;
    loop {
        line.clear();
        if r.read_line(line)? == 0 {
            return Err(std::io::Error::other("connection closed"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap_or(0);
            } else if k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked") {
                chunked = true;
            }
        }
    }
    if chunked {
        loop {
            line.clear();
            r.read_line(line)?;
            let n = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            let mut skip = vec![0u8; n + 2];
            r.read_exact(&mut skip)?;
            if n == 0 {
                break;
            }
        }
    } else {
        let mut body = vec![0u8; len];
        r.read_exact(&mut body)?;
    }
    Ok(status)
}

fn run_connection(
    addr: &str,
    request: &[u8],
    phase: &AtomicU8,
) -> std::io::Result<(Vec<u32>, BTreeMap<u16, u64>)> {
    let stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::with_capacity(64 * 1024, stream);
    let mut line = String::new();
    let mut latencies = Vec::with_capacity(1 << 16);
    let mut statuses = BTreeMap::new();
    loop {
        let p = phase.load(Ordering::Relaxed);
        if p == DONE {
            break;
        }
        let t = Instant::now();
        writer.write_all(request)?;
        let status = read_response(&mut reader, &mut line)?;
        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
        // Count only requests that started and ended inside the measured period.
        if p == MEASURING && phase.load(Ordering::Relaxed) == MEASURING {
            latencies.push(us);
            *statuses.entry(status).or_insert(0) += 1;
        }
    }
    Ok((latencies, statuses))
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let phase = Arc::new(AtomicU8::new(WARMING));
    let request = Arc::new(args.request);
    let threads: Vec<_> = (0..args.connections)
        .map(|_| {
            let (phase, request, addr) = (phase.clone(), request.clone(), args.addr.clone());
            std::thread::spawn(move || run_connection(&addr, &request, &phase))
        })
        .collect();
    std::thread::sleep(Duration::from_secs_f64(args.warmup));
    phase.store(MEASURING, Ordering::SeqCst);
    // The measured window is announced on stderr so the caller can sample CPU time around it.
    eprintln!("measuring");
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(args.seconds));
    phase.store(DONE, Ordering::SeqCst);
    let elapsed = start.elapsed().as_secs_f64();
    eprintln!("done");
    let mut all = Vec::new();
    let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
    let mut errors = 0;
    for t in threads {
        match t.join() {
            Ok(Ok((l, s))) => {
                all.extend(l);
                for (k, v) in s {
                    *statuses.entry(k).or_insert(0) += v;
                }
            }
            Ok(Err(e)) => {
                errors += 1;
                eprintln!("connection error: {e}");
            }
            Err(_) => errors += 1,
        }
    }
    all.sort_unstable();
    let n = all.len();
    let status_json: Vec<String> = statuses
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    println!(
        "{{\"requests\":{n},\"seconds\":{elapsed:.3},\"rps\":{:.1},\"p50_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3},\"statuses\":{{{}}},\"connection_errors\":{errors}}}",
        n as f64 / elapsed,
        percentile(&all, 50.0),
        percentile(&all, 99.0),
        percentile(&all, 100.0),
        status_json.join(",")
    );
}
