//! Reading a child's output line by line with a bound on line length: a longer line comes out in
//! pieces marked partial (split on a UTF-8 boundary), so one event always fits in one frame.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// The longest line passed through as one event; longer ones are split.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The line goes on in the next piece.
    pub partial: bool,
}

/// Joins the pieces of a line [`LineReader`] split, for mappers that parse whole lines (JSON).
#[derive(Debug, Default)]
pub struct LineJoiner {
    pending: String,
}

impl LineJoiner {
    /// The whole line once its last piece arrives (at most `max` bytes of the pieces before it
    /// are kept); `None` while it goes on.
    pub fn join(&mut self, line: Line, max: usize) -> Option<String> {
        if line.partial {
            if self.pending.len() < max {
                self.pending.push_str(&line.text);
            }
            return None;
        }
        if self.pending.is_empty() {
            return Some(line.text);
        }
        Some(std::mem::take(&mut self.pending) + &line.text)
    }
}

#[derive(Debug)]
pub struct LineReader<R> {
    inner: BufReader<R>,
    max: usize,
    carry: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(reader: R, max: usize) -> Self {
        Self { inner: BufReader::new(reader), max: max.max(4), carry: Vec::new() }
    }

    /// The next line without its `\n` (or `\r\n`), or `None` at the end of the stream.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                return Ok((!buf.is_empty()).then(|| finish(buf, false)));
            }
            let room = self.max.saturating_sub(buf.len());
            if let Some(i) = available.iter().position(|b| *b == b'\n')
                && i <= room
            {
                buf.extend_from_slice(&available[..i]);
                self.inner.consume(i + 1);
                return Ok(Some(finish(buf, false)));
            }
            let n = available.len().min(room);
            buf.extend_from_slice(&available[..n]);
            self.inner.consume(n);
            if buf.len() >= self.max {
                let cut = utf8_boundary(&buf);
                self.carry = buf.split_off(cut);
                return Ok(Some(finish(buf, true)));
            }
        }
    }
}

/// Where to cut `buf` so no UTF-8 character is split (an incomplete one at the end moves on).
fn utf8_boundary(buf: &[u8]) -> usize {
    match std::str::from_utf8(buf) {
        Err(e) if e.error_len().is_none() && e.valid_up_to() > 0 => e.valid_up_to(),
        _ => buf.len(),
    }
}

fn finish(mut buf: Vec<u8>, partial: bool) -> Line {
    if !partial && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    let text = match String::from_utf8(buf) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Line { text, partial }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().await.unwrap() {
            out.push(line);
        }
        out
    }

    fn line(text: &str, partial: bool) -> Line {
        Line { text: text.into(), partial }
    }

    #[tokio::test]
    async fn splits_lines_and_keeps_an_unterminated_last_one() {
        assert_eq!(
            all(b"a\r\nbc\n\nlast", 100).await,
            [line("a", false), line("bc", false), line("", false), line("last", false)]
        );
        assert_eq!(all(b"", 100).await, []);
    }

    #[tokio::test]
    async fn long_lines_come_in_pieces_on_char_boundaries() {
        assert_eq!(
            all(b"abcdefghij\nxy\n", 4).await,
            [line("abcd", true), line("efgh", true), line("ij", false), line("xy", false)]
        );
        // "é" is two bytes; a cut between them moves it to the next piece.
        assert_eq!(all("abcé\n".as_bytes(), 4).await, [line("abc", true), line("é", false)]);
    }
}
