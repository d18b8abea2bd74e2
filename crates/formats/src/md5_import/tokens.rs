//! The text of an MD5 file, cut into tokens: the part of Doom 3's lexer that MD5 files use.
//!
//! Tokens are separated by any whitespace (spaces, tabs, CRLF line ends); `//` starts a comment
//! that runs to the end of its line. A name or path is in double quotes and may hold spaces and
//! backslashes, but not a line end: a quote left open is caught on its own line. `{ } ( )` are
//! tokens of their own, even with no space around them. Everything else is a **word**: a keyword
//! (`numJoints`, `vert`) or a number, read as one where the format expects one.
//!
//! Every reading method says what it expected in its error, with the line, so a damaged file is
//! one line pointing into it. A count (`numverts 494`) comes before its data: [`Tokens::count`]
//! checks it against what the rest of the text could hold before anything is allocated for it.

use super::error::{Md5Error, quote};
use glam::{DVec3, Vec3};

/// One token of the text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Token<'a> {
    /// A keyword or a number.
    Word(&'a str),
    /// The text between two double quotes.
    Quoted(&'a str),
    /// `{`, `}`, `(` or `)`.
    Mark(u8),
}

impl Token<'_> {
    /// The token as a message shows it.
    fn described(&self) -> String {
        match self {
            Token::Word(word) => quote(word),
            Token::Quoted(text) => format!("the name {}", quote(text)),
            Token::Mark(mark) => format!("'{}'", *mark as char),
        }
    }
}

/// A reader over the text: where it is, and on which line.
pub struct Tokens<'a> {
    text: &'a str,
    at: usize,
    /// The line `at` is on (1 for the first).
    line: usize,
    /// The line of the last token read: where a message points.
    token_line: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text, at: 0, line: 1, token_line: 1 }
    }

    /// An error at the line of the last token read.
    pub fn error(&self, problem: String) -> Md5Error {
        Md5Error::At { line: self.token_line, problem }
    }

    /// The line of the last token read.
    pub fn token_line(&self) -> usize {
        self.token_line
    }

    /// Bytes of text not read yet.
    pub fn left(&self) -> usize {
        self.text.len() - self.at
    }

    /// Steps over whitespace and comments, counting lines.
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            match b {
                b'\n' => {
                    self.line += 1;
                    self.at += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.at += 1,
                b'/' if bytes.get(self.at + 1) == Some(&b'/') => {
                    // A comment: to the end of the line (the line end itself is counted above).
                    self.at = bytes[self.at..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |n| self.at + n);
                }
                _ => break,
            }
        }
    }

    /// The next token, or None at the end of the text.
    pub fn next(&mut self) -> Result<Option<Token<'a>>, Md5Error> {
        self.skip_space();
        self.token_line = self.line;
        let bytes = self.text.as_bytes();
        let Some(&first) = bytes.get(self.at) else { return Ok(None) };
        let start = self.at;
        match first {
            b'{' | b'}' | b'(' | b')' => {
                self.at += 1;
                Ok(Some(Token::Mark(first)))
            }
            b'"' => {
                // To the closing quote, on the same line.
                let rest = &bytes[start + 1..];
                match rest.iter().position(|&b| b == b'"' || b == b'\n') {
                    Some(n) if rest[n] == b'"' => {
                        self.at = start + 1 + n + 1;
                        Ok(Some(Token::Quoted(&self.text[start + 1..start + 1 + n])))
                    }
                    _ => Err(self.error("a quote opens a name that is not closed on its line".into())),
                }
            }
            _ => {
                // A word runs to whitespace, a mark, a quote or a comment.
                let mut end = start;
                while let Some(&b) = bytes.get(end) {
                    let comment = b == b'/' && bytes.get(end + 1) == Some(&b'/');
                    if b.is_ascii_whitespace() || b"{}()\"".contains(&b) || b == 0x0b || comment {
                        break;
                    }
                    end += 1;
                }
                self.at = end;
                Ok(Some(Token::Word(&self.text[start..end])))
            }
        }
    }

    /// The next token without taking it.
    pub fn peek(&mut self) -> Result<Option<Token<'a>>, Md5Error> {
        let (at, line, token_line) = (self.at, self.line, self.token_line);
        let token = self.next();
        (self.at, self.line, self.token_line) = (at, line, token_line);
        token
    }

    /// The next token, which must be there; `what` says what was expected, if the text ends (the
    /// message is made only then: every number of a file passes here, and costs no allocation).
    fn expect(&mut self, what: impl Fn() -> String) -> Result<Token<'a>, Md5Error> {
        match self.next()? {
            Some(token) => Ok(token),
            None => Err(self.error(format!("the file ends where {} should come (is it cut short?)", what()))),
        }
    }

    fn wrong(&self, what: String, found: Token) -> Md5Error {
        self.error(format!("expected {what}, found {}", found.described()))
    }

    /// The keyword `word`, exactly (MD5's keywords are case-sensitive, as Doom 3 reads them).
    pub fn keyword(&mut self, word: &str) -> Result<(), Md5Error> {
        let what = || format!("the keyword {word}");
        match self.expect(what)? {
            Token::Word(w) if w == word => Ok(()),
            other => Err(self.wrong(what(), other)),
        }
    }

    /// `keyword index`, the index the next in order (`vert 0`, `vert 1`...): the format numbers its
    /// entries, and a number out of place means entries were lost or doubled.
    pub fn numbered(&mut self, keyword: &str, expected: usize) -> Result<(), Md5Error> {
        let what = || format!("{keyword} {expected}");
        match self.expect(what)? {
            Token::Word(w) if w == keyword => {}
            other => {
                let why = format!("{} (the count before the {keyword} lines says there are more)", what());
                return Err(self.wrong(why, other));
            }
        }
        let index = self.integer("an entry's index")?;
        if index != expected as i64 {
            return Err(self.error(format!("expected {}, found {keyword} {index}", what())));
        }
        Ok(())
    }

    /// One of `{ } ( )`.
    pub fn mark(&mut self, mark: u8) -> Result<(), Md5Error> {
        let what = || format!("'{}'", mark as char);
        match self.expect(what)? {
            Token::Mark(m) if m == mark => Ok(()),
            other => Err(self.wrong(what(), other)),
        }
    }

    /// A quoted name; `what` says whose.
    pub fn quoted(&mut self, what: &str) -> Result<&'a str, Md5Error> {
        let what = || format!("{what} in double quotes");
        match self.expect(what)? {
            Token::Quoted(text) => Ok(text),
            other => Err(self.wrong(what(), other)),
        }
    }

    /// A whole number, such as a parent index (-1 for none) or a count.
    pub fn integer(&mut self, what: &str) -> Result<i64, Md5Error> {
        let what = || format!("a whole number ({what})");
        match self.expect(what)? {
            Token::Word(w) => w.parse::<i64>().map_err(|_| self.wrong(what(), Token::Word(w))),
            other => Err(self.wrong(what(), other)),
        }
    }

    /// A whole number from 0 to `below - 1`: an index into something with `below` entries.
    pub fn index(&mut self, what: &str, below: usize) -> Result<usize, Md5Error> {
        let n = self.integer(what)?;
        match usize::try_from(n) {
            Ok(i) if i < below => Ok(i),
            _ => Err(self.error(format!("{what} is {n}, outside 0 to {}", below as i64 - 1))),
        }
    }

    /// A decimal number that is finite as a 32-bit float, the program's numbers: MD5 has no use
    /// for NaN or infinity, and they would poison every sum they enter. Read in f64, for an
    /// orientation's x y z, from which w is computed (`mesh_file::unit_quaternion`).
    pub fn number(&mut self, what: &str) -> Result<f64, Md5Error> {
        let token = self.expect(|| format!("a number ({what})"))?;
        self.number_in(token, what)
    }

    /// `token` as a [`Tokens::number`].
    fn number_in(&self, token: Token, what: &str) -> Result<f64, Md5Error> {
        match token {
            Token::Word(w) => match w.parse::<f64>() {
                Ok(x) if (x as f32).is_finite() => Ok(x),
                Ok(_) => Err(self.error(format!("{what} is {}, not a finite number", quote(w)))),
                Err(_) => Err(self.wrong(format!("a number ({what})"), token)),
            },
            other => Err(self.wrong(format!("a number ({what})"), other)),
        }
    }

    /// A [`Tokens::number`], or None where the block closes instead (`}`): a list of numbers of
    /// unknown length, read in one pass.
    pub fn number_or_close(&mut self, what: &str) -> Result<Option<f64>, Md5Error> {
        match self.expect(|| format!("a number ({what}) or '}}'"))? {
            Token::Mark(b'}') => Ok(None),
            token => self.number_in(token, what).map(Some),
        }
    }

    /// A [`Tokens::number`] as the 32-bit float the program computes with.
    pub fn float(&mut self, what: &str) -> Result<f32, Md5Error> {
        self.number(what).map(|x| x as f32)
    }

    /// `( x y z )`.
    pub fn triple(&mut self, what: &str) -> Result<Vec3, Md5Error> {
        self.triple64(what).map(|v| v.as_vec3())
    }

    /// `( x y z )`, each as read, in f64.
    pub fn triple64(&mut self, what: &str) -> Result<DVec3, Md5Error> {
        self.mark(b'(')?;
        let v = DVec3::new(self.number(what)?, self.number(what)?, self.number(what)?);
        self.mark(b')')?;
        Ok(v)
    }

    /// `keyword N`: a count of things that follow, each of which takes at least `bytes_each`
    /// bytes of text. A count the rest of the text cannot hold is refused here, before anything
    /// is allocated for it: a damaged or hostile `numverts 4000000000` costs nothing.
    pub fn count(&mut self, keyword: &str, bytes_each: usize) -> Result<usize, Md5Error> {
        self.keyword(keyword)?;
        // A few counts a file: their message may be put together each time.
        let n = self.integer(&format!("the count after {keyword}"))?;
        let Ok(count) = usize::try_from(n) else {
            return Err(self.error(format!("{keyword} is {n}; a count cannot be negative")));
        };
        self.fits(keyword, count, bytes_each)?;
        Ok(count)
    }

    /// Whether `count` things of at least `bytes_each` bytes fit in the text left.
    pub fn fits(&self, what: &str, count: usize, bytes_each: usize) -> Result<(), Md5Error> {
        let needed = count as u128 * bytes_each as u128;
        if needed > self.left() as u128 {
            return Err(self.error(format!(
                "{what} says {count}, which needs at least {needed} more bytes, but the file has only {} \
                 left (a wrong count, or the file is cut short)",
                self.left()
            )));
        }
        Ok(())
    }

    /// Nothing but whitespace and comments is left, or one line says what follows the last block.
    pub fn finish(&mut self) -> Result<(), Md5Error> {
        match self.next()? {
            None => Ok(()),
            Some(token) => Err(self.error(format!(
                "{} follows the end of the file's last block; the counts before it may be wrong",
                token.described()
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
