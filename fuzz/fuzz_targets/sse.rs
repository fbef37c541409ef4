//! The client's event-stream reader, `client::http::Sse`, fed in fuzzer-chosen pieces.
//!
//! Input: a byte `n`, then `n % 8` chunk lengths (each `% 64`, `0` is an empty feed, used in
//! turn), then the stream (without lengths: in one piece).
//!
//! Properties:
//! * split invariance: the events (every `feed`, then `finish`) are the same for the whole
//!   stream at once, for the chosen pieces and for one byte at a time;
//! * they are the events of an independent reader written from the WHATWG text
//!   (`skills_edge_fuzz::sse`: one leading BOM dropped, CR / LF / CRLF, comments, `data`
//!   joined with LF, only `message` events);
//! * bounded holding: after each feed the reader holds (heap bytes, counted by this target's
//!   allocator) at most twice what came after the last empty line, plus a small constant, so
//!   nothing dispatched or skipped stays held; after `finish` it holds no more than that
//!   constant.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::client::http::Sse;
use skills_edge_fuzz::sse::{events, Pending};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Heap bytes live now (requested sizes), to measure what the reader holds.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// What a reader may hold beyond twice the pending bytes: a few small buffers.
const SLACK: isize = 256;

fn chunks<'a>(stream: &'a [u8], lengths: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = stream;
    let mut i = 0;
    while !rest.is_empty() {
        let n = match lengths.get(i % lengths.len().max(1)) {
            Some(l) => usize::from(*l % 64),
            None => rest.len(),
        };
        let n = n.min(rest.len());
        out.push(&rest[..n]);
        rest = &rest[n..];
        i += 1;
        if i > 4 * stream.len() + 8 {
            // Only empty feeds are left: finish in one piece.
            out.push(rest);
            break;
        }
    }
    out
}

fn read(pieces: &[&[u8]]) -> Vec<String> {
    let mut sse = Sse::default();
    let mut out = Vec::new();
    for p in pieces {
        out.extend(sse.feed(p));
    }
    out.extend(sse.finish());
    out
}

/// Feeds `pieces` and checks after each what the reader holds.
fn check_holding(pieces: &[&[u8]]) {
    let mut pending = Pending::default();
    let mut fed = 0;
    let mut sse = Box::new(Sse::default());
    let base = LIVE.load(Ordering::Relaxed);
    for p in pieces {
        fed += p.len();
        pending.feed(p);
        drop(sse.feed(p));
        let held = LIVE.load(Ordering::Relaxed) - base;
        let allowed = 2 * pending.get() as isize + SLACK;
        assert!(
            held <= allowed,
            "the reader holds {held} bytes after {fed} fed, {} of them after the last empty line",
            pending.get()
        );
    }
    drop(sse.finish());
    let held = LIVE.load(Ordering::Relaxed) - base;
    assert!(held <= SLACK, "the reader holds {held} bytes after finish");
}

fuzz_target!(|data: &[u8]| {
    let n = usize::from(data.first().copied().unwrap_or(0) % 8);
    let lengths = data.get(1..1 + n).unwrap_or(&[]);
    let stream = data.get(1 + n..).unwrap_or(&[]);

    let whole = read(&[stream]);
    let expected = events(stream);
    assert_eq!(
        whole,
        expected,
        "the reader's events differ from the WHATWG reading of {:?}",
        String::from_utf8_lossy(stream)
    );
    let pieces = chunks(stream, lengths);
    assert_eq!(
        read(&pieces),
        whole,
        "the events depend on the split {lengths:?}"
    );
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(
        read(&bytes),
        whole,
        "the events differ when fed one byte at a time"
    );
    let total: usize = whole.iter().map(|e| e.len()).sum();
    // Lossy decoding turns one bad byte into at most three (U+FFFD).
    assert!(
        total <= 3 * stream.len(),
        "the events are larger than the stream"
    );

    check_holding(&pieces);
    check_holding(&bytes);
});
