//! Reading a request body within a limit: at most `limit + 1` bytes are ever kept, and an
//! oversized body is drained for a while before being cancelled.

/// Default body limit: 1 MiB.
pub(crate) const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// Largest accepted body limit, [`HttpConfig::max_body_bytes`](super::HttpConfig::max_body_bytes):
/// 16 MiB (the Worker holds the body in memory).
pub const MAX_MAX_BODY_BYTES: usize = 16 << 20;

/// How many bytes of an oversized body are still read (and discarded) after the limit is
/// crossed, before the rest is cancelled: answering 413 while the client is still uploading
/// and cancelling at once can break the connection for the requests behind it (wrangler dev's
/// proxy answers the next request with 503), so a moderate excess is drained instead.
pub(crate) const DRAIN_BYTES: u64 = 16 << 20;

/// Reads a body in chunks without ever holding more than `limit + 1` bytes of it.
///
/// ```
/// use skills_edge::http::BodyReader;
/// let mut r = BodyReader::new(4);
/// assert!(r.push(b"abc"));
/// assert!(r.push(b"de")); // over the limit: keep reading, to discard the rest
/// assert_eq!(r.room(), 0);
/// assert_eq!(r.finish(), None);
/// ```
#[derive(Debug)]
pub struct BodyReader {
    limit: usize,
    buf: Vec<u8>,
    discarded: u64,
}

impl BodyReader {
    /// A reader for a body of at most `limit` bytes.
    pub fn new(limit: usize) -> BodyReader {
        BodyReader {
            limit,
            buf: Vec::new(),
            discarded: 0,
        }
    }

    /// How many leading bytes of the next chunk are kept (0 once over the limit), so an
    /// adapter copies no more than that out of the platform's buffer.
    pub fn room(&self) -> usize {
        (self.limit + 1).saturating_sub(self.buf.len())
    }

    /// Records a chunk of `len` bytes of which `kept` are the first `min(len, room())`.
    /// Returns whether to keep reading; `false` means cancel the stream now.
    pub fn push_kept(&mut self, kept: &[u8], len: usize) -> bool {
        let take = kept.len().min(self.room());
        self.buf.extend_from_slice(kept.get(..take).unwrap_or(&[]));
        self.discarded = self.discarded.saturating_add((len - take.min(len)) as u64);
        self.discarded <= DRAIN_BYTES
    }

    /// Records a whole chunk. Returns whether to keep reading (see [`BodyReader::push_kept`]).
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        let take = chunk.len().min(self.room());
        self.push_kept(chunk.get(..take).unwrap_or(&[]), chunk.len())
    }

    /// Whether more than `limit` bytes arrived.
    fn is_over(&self) -> bool {
        self.buf.len() > self.limit
    }

    /// The body, or `None` when it was longer than the limit (answer
    /// [`Endpoint::body_too_large`](super::Endpoint::body_too_large)).
    pub fn finish(self) -> Option<Vec<u8>> {
        (!self.is_over()).then_some(self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_reader_keeps_at_most_limit_plus_one_bytes() {
        let mut r = BodyReader::new(5);
        assert_eq!(r.room(), 6);
        assert!(r.push(b"ab"));
        assert!(r.push(b""));
        assert!(r.push(b"cde"));
        assert!(!r.is_over());
        assert_eq!(r.finish(), Some(b"abcde".to_vec()));

        let mut r = BodyReader::new(5);
        assert!(r.push(b"abcdefgh"));
        assert!(r.is_over());
        assert_eq!(r.room(), 0);
        assert_eq!(r.buf.len(), 6);
        // The excess is discarded, up to DRAIN_BYTES; then reading stops.
        assert!(r.push_kept(&[], DRAIN_BYTES as usize - 2));
        assert_eq!(r.buf.len(), 6);
        assert!(!r.push_kept(&[], 1));
        assert_eq!(r.finish(), None);

        // An adapter that copies only `room()` bytes.
        let mut r = BodyReader::new(3);
        let chunk = [1u8; 10];
        let n = r.room().min(chunk.len());
        assert!(r.push_kept(&chunk[..n], chunk.len()));
        assert!(r.is_over());
        assert_eq!(r.buf.len(), 4);

        let r = BodyReader::new(0);
        assert_eq!(r.finish(), Some(Vec::new()));
    }
}
