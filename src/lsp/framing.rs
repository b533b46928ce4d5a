//! The LSP base protocol as the server reads it: a header block (`Content-Length`, optionally `Content-Type`, each
//! line ended by CR LF, the block by an empty line) and a body of exactly `Content-Length` bytes.
//!
//! The client is trusted for nothing. The header block is read to at most [`HEADER_LIMIT`] bytes; a body longer
//! than [`MESSAGE_LIMIT`] is skipped in bounded chunks, never held; a malformed frame is refused (the caller answers
//! it) and reading goes on after it: past its body when its length is known, else from the next `Content-Length`
//! header in the stream.

use std::io::{self, BufRead, Read};

/// The largest body the server reads: room for a buffer at the linter's file limit (32 MiB) whose every byte
/// JSON-escapes to two (a newline, a quote, a backslash), with its envelope.
pub const MESSAGE_LIMIT: u64 = 2 * crate::repo::fs::MAX_FILE_BYTES;
/// The longest header block the server reads: clients send two short lines.
pub const HEADER_LIMIT: u64 = 8 * 1024;

/// The header name reading resumes at after a frame whose end is unknown (compared in lower case).
const CONTENT_LENGTH: &[u8] = b"content-length:";

/// What the next frame of the stream is.
#[derive(Debug, PartialEq)]
pub enum Frame {
    Body(Vec<u8>),
    /// A frame the server does not read: the caller answers it; the reader skips it before the next frame.
    Refused(Refusal),
    /// The stream ended, between frames or within one.
    End,
}

#[derive(Debug, PartialEq)]
pub enum Refusal {
    /// Its header block breaks the base protocol; why, in words that quote nothing of the client's bytes.
    Malformed(&'static str),
    /// Its body has this many bytes, more than [`MESSAGE_LIMIT`].
    TooLarge(u64),
}

/// A sink that counts what it is given (what a skip consumed before the stream ended).
struct Counted(u64);

impl io::Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the reader owes the stream before the next header block, after a refused frame.
enum Pending {
    Nothing,
    /// The refused frame's body, of a known length.
    Skip(u64),
    /// The refused frame's end is unknown: the next frame starts at the next `Content-Length` header.
    Resync,
}

pub struct FrameReader<R> {
    input: R,
    pending: Pending,
    /// The stream ended within a body: (the bytes its header declared, the bytes that came).
    ended_within: Option<(u64, u64)>,
}

/// One header block, as far as it was understood.
#[derive(Default)]
struct Head {
    length: Option<u64>,
    /// Why the body's length is unknown, though a `Content-Length` header was there.
    length_unknown: Option<&'static str>,
    /// The first thing wrong with the block other than its length.
    malformed: Option<&'static str>,
}

enum HeadRead {
    Head(Head),
    TooLong,
    End,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(input: R) -> FrameReader<R> {
        FrameReader { input, pending: Pending::Nothing, ended_within: None }
    }

    /// After [`Frame::End`]: when the stream ended within a body, the bytes its header declared and those that came.
    pub fn ended_within(&self) -> Option<(u64, u64)> {
        self.ended_within
    }

    pub fn next_frame(&mut self) -> Frame {
        // The guards consume the refused frame; when the stream ends within it, so does reading.
        let seed: &[u8] = match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::Nothing => b"",
            Pending::Skip(length) if self.skip(length) => b"",
            Pending::Resync if self.find_content_length() => b"Content-Length:",
            Pending::Skip(_) | Pending::Resync => return Frame::End,
        };
        let head = match self.read_head(seed) {
            HeadRead::Head(head) => head,
            HeadRead::TooLong => {
                self.pending = Pending::Resync;
                return Frame::Refused(Refusal::Malformed("the header block is longer than 8 KiB"));
            }
            HeadRead::End => return Frame::End,
        };
        let length = match (head.length, head.length_unknown) {
            (Some(length), None) => length,
            (_, reason) => {
                self.pending = Pending::Resync;
                return Frame::Refused(Refusal::Malformed(reason.unwrap_or("the header block has no Content-Length")));
            }
        };
        if let Some(reason) = head.malformed {
            self.pending = Pending::Skip(length);
            return Frame::Refused(Refusal::Malformed(reason));
        }
        if length > MESSAGE_LIMIT {
            self.pending = Pending::Skip(length);
            return Frame::Refused(Refusal::TooLarge(length));
        }
        // At most MESSAGE_LIMIT bytes, reserved but untouched until they arrive.
        let mut body = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
        match (&mut self.input).take(length).read_to_end(&mut body) {
            Ok(read) if read as u64 == length => Frame::Body(body),
            _ => {
                self.ended_within = Some((length, body.len() as u64));
                Frame::End
            }
        }
    }

    /// Reads header lines up to the empty one, the first starting with `seed` (what resynchronising consumed).
    fn read_head(&mut self, seed: &[u8]) -> HeadRead {
        let mut head = Head::default();
        let mut line = seed.to_vec();
        let mut budget = HEADER_LIMIT;
        loop {
            let Ok(read) = (&mut self.input).take(budget).read_until(b'\n', &mut line) else { return HeadRead::End };
            budget -= read as u64;
            if line.pop_if(|last| *last == b'\n').is_none() {
                return if budget == 0 { HeadRead::TooLong } else { HeadRead::End };
            }
            if line.pop_if(|last| *last == b'\r').is_none() {
                head.malformed.get_or_insert("a header line ends in LF without CR");
            }
            if line.is_empty() {
                return HeadRead::Head(head);
            }
            head.read_line(&line);
            line.clear();
        }
    }

    /// Consumes `length` bytes; false when the stream ends first (then [`FrameReader::ended_within`] says so).
    fn skip(&mut self, length: u64) -> bool {
        let mut counted = Counted(0);
        let whole = io::copy(&mut (&mut self.input).take(length), &mut counted).is_ok_and(|skipped| skipped == length);
        if !whole {
            self.ended_within = Some((length, counted.0));
        }
        whole
    }

    /// Consumes the stream up to and including the next `Content-Length:` (in any case); false when it ends first.
    fn find_content_length(&mut self) -> bool {
        let mut matched = 0;
        loop {
            let (found, used) = match self.input.fill_buf() {
                Ok([]) => return false,
                Ok(buffer) => advance_match(buffer, &mut matched),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return false,
            };
            self.input.consume(used);
            if found {
                return true;
            }
        }
    }
}

/// Feeds `buffer` to a match of [`CONTENT_LENGTH`] that has `matched` bytes: whether it completed, and how many
/// bytes of `buffer` it took. Its first letter occurs nowhere else in it, so a mismatch restarts from that letter.
fn advance_match(buffer: &[u8], matched: &mut usize) -> (bool, usize) {
    for (at, byte) in buffer.iter().map(u8::to_ascii_lowercase).enumerate() {
        *matched = if byte == CONTENT_LENGTH[*matched] { *matched + 1 } else { usize::from(byte == CONTENT_LENGTH[0]) };
        if *matched == CONTENT_LENGTH.len() {
            return (true, at + 1);
        }
    }
    (false, buffer.len())
}

impl Head {
    fn read_line(&mut self, line: &[u8]) {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            self.malformed.get_or_insert("a header line has no colon");
            return;
        };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        if name.eq_ignore_ascii_case(b"content-length") {
            match (decimal(value), self.length) {
                (None, _) => self.length_unknown = Some("the Content-Length is not a decimal number"),
                (Some(length), None) => self.length = Some(length),
                (Some(length), Some(earlier)) => {
                    self.malformed.get_or_insert("the header block has several Content-Length headers");
                    if length != earlier {
                        self.length_unknown = Some("the header block has several Content-Length headers");
                    }
                }
            }
        } else if name.eq_ignore_ascii_case(b"content-type") && !is_utf8_content_type(value) {
            self.malformed.get_or_insert("the Content-Type names a charset other than UTF-8");
        }
        // Other headers: the base protocol may add some; they say nothing the server needs.
    }
}

/// Digits only (no sign, no spaces within); a number past `u64` saturates, as far beyond the limit.
fn decimal(value: &[u8]) -> Option<u64> {
    (!value.is_empty() && value.iter().all(u8::is_ascii_digit))
        .then(|| value.iter().fold(0u64, |n, digit| n.saturating_mul(10).saturating_add(u64::from(digit - b'0'))))
}

/// The protocol's body is UTF-8 (`utf8` accepted for old clients), whatever the media type says.
fn is_utf8_content_type(value: &[u8]) -> bool {
    value.split(|&b| b == b';').skip(1).all(|parameter| {
        let parameter = parameter.trim_ascii().to_ascii_lowercase();
        match parameter.strip_prefix(b"charset=") {
            Some(charset) => matches!(charset.trim_ascii(), b"utf-8" | b"utf8" | b"\"utf-8\"" | b"\"utf8\""),
            None => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(stream: &[u8], buffer: usize) -> Vec<Frame> {
        let mut reader = FrameReader::new(io::BufReader::with_capacity(buffer, stream));
        let mut frames = Vec::new();
        loop {
            match reader.next_frame() {
                Frame::End => return frames,
                frame => frames.push(frame),
            }
        }
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    #[test]
    fn reads_frames_back_to_back_with_any_header_case_and_spacing() {
        let stream = b"Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: application/vscode-jsonrpc; \
                       charset=utf8\r\n\r\n[1]CONTENT-LENGTH: \t 4 \r\nX-Other: y\r\n\r\nnull";
        assert_eq!(frames(stream, 8192), [body("{}"), body("[1]"), body("null")]);
    }

    #[test]
    fn a_frame_of_known_length_is_refused_and_skipped() {
        let cases: [(&[u8], &str); 4] = [
            (b"Content-Length: 2\n\r\n{}", "a header line ends in LF without CR"),
            (b"Content-Length: 2\r\nno colon\r\n\r\n{}", "a header line has no colon"),
            (
                b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
                "the header block has several Content-Length headers",
            ),
            (
                b"Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n{}",
                "the Content-Type names a charset other than UTF-8",
            ),
        ];
        for (refused, reason) in cases {
            let stream = [refused, b"Content-Length: 1\r\n\r\n1"].concat();
            assert_eq!(frames(&stream, 8192), [Frame::Refused(Refusal::Malformed(reason)), body("1")], "{reason}");
        }
    }

    #[test]
    fn a_frame_of_unknown_length_is_refused_and_reading_resumes_at_the_next_content_length() {
        let cases: [(&[u8], &str); 6] = [
            (b"Content-Length: +2\r\n\r\n{}", "the Content-Length is not a decimal number"),
            (b"Content-Length: 0x2\r\n\r\n{}", "the Content-Length is not a decimal number"),
            (b"Content-Length: -1\r\n\r\n{}", "the Content-Length is not a decimal number"),
            (
                b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
                "the header block has several Content-Length headers",
            ),
            (b"Content-Lenght: 2\r\n\r\n{}", "the header block has no Content-Length"),
            (b"\r\n{}", "the header block has no Content-Length"),
        ];
        for (refused, reason) in cases {
            // A buffer of 3 bytes: the header name is found across reads.
            let stream = [refused, b"\"content\"Content-Length: 1\r\n\r\n1"].concat();
            assert_eq!(frames(&stream, 3), [Frame::Refused(Refusal::Malformed(reason)), body("1")], "{reason}");
        }
    }

    #[test]
    fn a_body_over_the_limit_is_refused_and_skipped_unread() {
        let length = MESSAGE_LIMIT + 1;
        let mut stream = format!("Content-Length: {length}\r\n\r\n").into_bytes();
        stream.resize(stream.len() + length as usize, b' ');
        stream.extend(b"Content-Length: 1\r\n\r\n1");
        assert_eq!(frames(&stream, 64 * 1024), [Frame::Refused(Refusal::TooLarge(length)), body("1")]);
        let absurd = b"Content-Length: 99999999999999999999999\r\n\r\n{}";
        assert_eq!(frames(absurd, 8192), [Frame::Refused(Refusal::TooLarge(u64::MAX))]);
    }

    #[test]
    fn a_header_block_over_its_limit_is_refused() {
        let mut stream = b"Content-Length: 1\r\nX: ".to_vec();
        stream.resize(stream.len() + 100_000, b'a');
        stream.extend(b"\r\n\r\n1Content-Length: 1\r\n\r\n2");
        let refused = Frame::Refused(Refusal::Malformed("the header block is longer than 8 KiB"));
        assert_eq!(frames(&stream, 8192), [refused, body("2")]);
    }

    #[test]
    fn a_stream_that_ends_within_a_frame_ends() {
        for stream in [&b"Content-Length: 5\r\n\r\n{}"[..], b"Content-Length: 5\r\n", b"Content-Len", b""] {
            assert_eq!(frames(stream, 8192), [], "{stream:?}");
        }
    }
}
