//! A reference reader of `text/event-stream`, written from the WHATWG HTML text ("Interpreting
//! an event stream") independently of the client's incremental `Sse`, over the whole stream at
//! once: one leading U+FEFF is dropped; lines end in CRLF, LF or CR; a line starting with `:`
//! is a comment; `data` values are joined with LF (the last LF removed); an empty line
//! dispatches when some `data` line came; `event` names the type, and only `message` events
//! (named or not) are kept. At the end of the stream the client's documented choice applies
//! (an event whose blank line never came is still returned, where WHATWG drops it).

/// The data of every `message` event of `stream`, in order.
pub fn events(stream: &[u8]) -> Vec<String> {
    let stream = stream.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(stream);
    let mut out = Vec::new();
    let mut event = Event::default();
    let mut start = 0;
    let mut i = 0;
    while i < stream.len() {
        let b = stream[i];
        if b == b'\n' || b == b'\r' {
            event.line(&stream[start..i], &mut out);
            i += if b == b'\r' && stream.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            start = i;
        } else {
            i += 1;
        }
    }
    if start < stream.len() {
        event.line(&stream[start..], &mut out);
    }
    event.line(b"", &mut out);
    out
}

/// How many bytes of a stream come after its last empty line (what a reader may still need to
/// hold; everything before has been dispatched or dropped), counted as the stream is fed.
#[derive(Debug, Default)]
pub struct Pending {
    since: usize,
    in_line: bool,
    after_cr: bool,
    last_line_empty: bool,
}

impl Pending {
    /// Counts `bytes` fed after the ones before.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.since += 1;
            if std::mem::take(&mut self.after_cr) && b == b'\n' {
                // The LF of a CRLF: still the end of the line before.
                if self.last_line_empty {
                    self.since = 0;
                }
                continue;
            }
            if b == b'\n' || b == b'\r' {
                self.last_line_empty = !self.in_line;
                if self.last_line_empty {
                    self.since = 0;
                }
                self.in_line = false;
                self.after_cr = b == b'\r';
            } else {
                self.in_line = true;
            }
        }
    }

    /// The bytes fed since the last empty line ended.
    pub fn get(&self) -> usize {
        self.since
    }
}

#[derive(Default)]
struct Event {
    data: Vec<u8>,
    has_data: bool,
    kind: Vec<u8>,
}

impl Event {
    fn line(&mut self, line: &[u8], out: &mut Vec<String>) {
        if line.is_empty() {
            let mut data = std::mem::take(&mut self.data);
            let kind = std::mem::take(&mut self.kind);
            if std::mem::take(&mut self.has_data) && (kind.is_empty() || kind == b"message") {
                if data.last() == Some(&b'\n') {
                    data.pop();
                }
                out.push(String::from_utf8_lossy(&data).into_owned());
            }
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match line.iter().position(|&c| c == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
                self.has_data = true;
            }
            b"event" => self.kind = value.to_vec(),
            _ => {}
        }
    }
}
