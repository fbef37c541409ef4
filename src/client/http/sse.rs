//! An incremental `text/event-stream` reader.

/// An incremental `text/event-stream` reader (WHATWG HTML, "Interpreting an event stream"):
/// lines end in CRLF, LF or CR; `data:` lines are joined with LF; an empty line dispatches;
/// comments and other fields are ignored. Only `message` events (named or not) are returned.
///
/// One leading UTF-8 byte order mark is skipped, even when it arrives split over chunks.
///
/// [`read_answer`](super::read_answer)'s reader of event streams; public (and hidden from the documentation) for the
/// fuzz target `sse`.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Sse {
    pub(super) line: Vec<u8>,
    pub(super) data: Vec<u8>,
    has_data: bool,
    event: Vec<u8>,
    after_cr: bool,
    /// Past the start of the stream (where a byte order mark may be).
    started: bool,
    /// How many bytes of a byte order mark the stream started with so far.
    bom: usize,
}

/// The UTF-8 byte order mark, U+FEFF.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Sse {
    /// Feeds bytes; returns the data of every event they complete.
    ///
    /// ```
    /// use skills_edge::client::http::Sse;
    /// let mut s = Sse::default();
    /// assert!(s.feed(b": keep-alive\n\nevent: message\ndata: {\"a\"").is_empty());
    /// assert_eq!(s.feed(b":1}\r\n\r\n"), vec!["{\"a\":1}".to_owned()]);
    /// ```
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for &b in bytes {
            if !self.started {
                if BOM.get(self.bom) == Some(&b) {
                    self.bom += 1;
                    self.started = self.bom == BOM.len();
                    continue;
                }
                self.replay_partial_bom(&mut out);
            }
            self.byte(b, &mut out);
        }
        out
    }

    /// The start of a stream that began like a byte order mark but was not one: its bytes
    /// are ordinary bytes.
    fn replay_partial_bom(&mut self, out: &mut Vec<String>) {
        self.started = true;
        let n = std::mem::take(&mut self.bom);
        for &b in BOM.get(..n).unwrap_or_default() {
            self.byte(b, out);
        }
    }

    fn byte(&mut self, b: u8, out: &mut Vec<String>) {
        if self.after_cr {
            self.after_cr = false;
            if b == b'\n' {
                return;
            }
        }
        match b {
            b'\n' => self.end_line(out),
            b'\r' => {
                self.after_cr = true;
                self.end_line(out);
            }
            _ => self.line.push(b),
        }
    }

    /// The end of the stream: an event whose blank line never came is still returned.
    pub fn finish(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.started {
            self.replay_partial_bom(&mut out);
        }
        if !self.line.is_empty() {
            self.end_line(&mut out);
        }
        self.end_line(&mut out);
        out
    }

    fn end_line(&mut self, out: &mut Vec<String>) {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            let data = std::mem::take(&mut self.data);
            let event = std::mem::take(&mut self.event);
            if std::mem::take(&mut self.has_data) && (event.is_empty() || event == b"message") {
                let mut data = data;
                if data.last() == Some(&b'\n') {
                    data.pop();
                }
                out.push(String::from_utf8_lossy(&data).into_owned());
            }
            return;
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (field, value) = match line.iter().position(|&c| c == b':') {
            Some(i) => {
                let v = line.get(i + 1..).unwrap_or_default();
                (
                    line.get(..i).unwrap_or_default(),
                    v.strip_prefix(b" ").unwrap_or(v),
                )
            }
            None => (line.as_slice(), &[][..]),
        };
        match field {
            b"data" => {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
                self.has_data = true;
            }
            b"event" => self.event = value.to_vec(),
            _ => {}
        }
    }
}
