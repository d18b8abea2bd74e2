//! What can be wrong with an MD5 model, each said in one line that points into the file.

use skinning_method::model::ModelError;
use skinning_method::printable::printable;
use std::fmt;

/// Why an `.md5mesh` (or one of its `.md5anim` files) could not be loaded. A problem in the text
/// names its line; names from the file are printed with their control characters escaped.
#[derive(Debug)]
pub enum Md5Error {
    /// The file cannot be read.
    Read { path: String, error: std::io::Error },
    /// The path is not a regular file: what it is instead (`a FIFO`, `a device`...).
    NotAFile(&'static str),
    /// The text breaks the format at this line (1 for the first).
    At { line: usize, problem: String },
    /// Something about the whole file, with no one line to blame.
    File(String),
    /// An `.md5anim` beside the mesh is damaged: its file name and what is wrong in it.
    Animation { file: String, error: Box<Md5Error> },
    /// The loaded pieces do not fit together (a bug in the loader if it ever shows).
    Model(ModelError),
}

impl fmt::Display for Md5Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Md5Error::Read { path, error } => {
                write!(f, "cannot read {} ({error}); check the path", printable(path))
            }
            Md5Error::NotAFile(kind) => {
                write!(f, "it is {kind}, not a regular file; give a model file: .md5mesh, .gltf or .glb")
            }
            Md5Error::At { line, problem } => write!(f, "line {line}: {problem}"),
            Md5Error::File(problem) => write!(f, "{problem}"),
            Md5Error::Animation { file, error } => {
                write!(f, "its animation {}: {error}; fix or remove that file", printable(file))
            }
            Md5Error::Model(e) => write!(f, "the loaded model does not fit together: {e}"),
        }
    }
}

impl std::error::Error for Md5Error {}

impl From<ModelError> for Md5Error {
    fn from(e: ModelError) -> Self {
        Md5Error::Model(e)
    }
}

/// A piece of the file quoted in a message: escaped, and cut after 40 characters so a damaged
/// file's megabyte-long token stays one short line.
pub fn quote(text: &str) -> String {
    const LONGEST: usize = 40;
    match text.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("\"{}...\"", printable(&text[..cut])),
        None => format!("\"{}\"", printable(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quoted_pieces_are_escaped_and_short() {
        assert_eq!(quote("origin"), "\"origin\"");
        assert_eq!(quote("a\u{1b}[2J"), "\"a\\u{1b}[2J\"");
        let long = "x".repeat(1000);
        assert_eq!(quote(&long), format!("\"{}...\"", "x".repeat(40)));
    }
}
