//! Buffers: where a glTF file keeps its numbers (spec, "Binary Data Storage").
//!
//! Every vertex position, weight, matrix and key time sits in a **buffer**, a plain run of bytes. A
//! buffer comes from one of three places:
//! - the `.glb`'s own `BIN` chunk (a buffer with no `uri`);
//! - a `data:` URI in the JSON, the bytes written out in base64 (`data:...;base64,AAAB...`);
//! - a file named by a path **relative to the model's folder**, percent-encoded like a URL:
//!   `"uri": "Fox.bin"`, `"buffers/Fox%20v2.bin"`.
//!
//! A buffer that only stands in for meshopt-compressed data (`EXT_meshopt_compression`'s
//! `"fallback": true`) is none of these: nothing is read for it, `meshopt.rs` makes its bytes.
//!
//! Each must hold at least the buffer's `byteLength` bytes; a `.glb` chunk may carry up to 3
//! padding bytes more. Nothing else is read. A file you did not write may point anywhere, so these
//! are refused before anything is opened: an absolute path (`/etc/passwd`, also when %-escaped,
//! `%2Fetc%2Fpasswd`), a URI with a scheme other than `data:` (`https:`, `file:`, a drive letter
//! `C:`), a path that leads out of the model's folder once `..` and links are followed
//! (`../../../../etc/passwd`, or a link beside the model to a file elsewhere: the rule of
//! `model_folder.rs`), and a path that is not a regular file (opening a FIFO waits for a writer; a
//! device such as `/dev/zero` never ends).

use super::error::ImportError;
use crate::model_folder::{Beside, Refused, given, inside};
use base64::Engine;
use skinning_method::printable::{printable, quoted};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The bytes of every buffer, in the file's buffer order.
pub fn resolve(
    document: &gltf::Document,
    blob: Option<Vec<u8>>,
    beside: Beside,
) -> Result<Vec<Vec<u8>>, ImportError> {
    let mut blob = blob;
    let mut resolved = Vec::new();
    for buffer in document.buffers() {
        let index = buffer.index();
        let fail = |problem: String| ImportError::Buffer { buffer: index, problem };
        if super::meshopt::is_fallback(&buffer) {
            resolved.push(Vec::new());
            continue;
        }
        let bytes = match buffer.source() {
            // Spec: only buffer 0 may be the GLB's BIN chunk.
            gltf::buffer::Source::Bin if index == 0 => blob
                .take()
                .ok_or_else(|| fail("it is the .glb's binary chunk, which the file does not have".into()))?,
            gltf::buffer::Source::Bin => {
                return Err(fail("only buffer 0 may be the .glb's binary chunk; give it a uri".into()));
            }
            gltf::buffer::Source::Uri(uri) => read_uri(uri, beside, buffer.length()).map_err(fail)?,
        };
        if bytes.len() < buffer.length() {
            return Err(fail(format!(
                "byteLength is {} but only {} bytes are there (the data is cut short)",
                buffer.length(),
                bytes.len()
            )));
        }
        resolved.push(bytes);
    }
    Ok(resolved)
}

/// The bytes a buffer's `uri` names: decoded from a `data:` URI, or read from the regular file at
/// that relative path beside the model (see the module's notes for what is refused). At most
/// `length` + 3 bytes are read from a file: that is all a buffer may use.
pub fn read_uri(uri: &str, beside: Beside, length: usize) -> Result<Vec<u8>, String> {
    read(&locate(uri, beside)?, length)
}

/// Where a `uri` leads, found before anything is read: the base64 text of a `data:` URI, a
/// regular file inside the model's folder, its path resolved (links and `..` followed), or the
/// bytes of a file handed over.
#[derive(Debug, PartialEq)]
pub enum Located<'u> {
    Data(&'u str),
    File { path: PathBuf, shown: String, size: u64 },
    Given(&'u [u8]),
}

/// Where `uri` leads, or why it may not be followed (the module's rules); nothing is read yet.
pub fn locate<'u>(uri: &'u str, beside: Beside<'u>) -> Result<Located<'u>, String> {
    if let Some(data) = uri.strip_prefix("data:") {
        let Some((_, encoded)) = data.split_once(";base64,") else {
            return Err("its data: URI is not base64 (data:...;base64,...)".into());
        };
        return Ok(Located::Data(encoded));
    }
    // A scheme is a letter, then letters, digits, + - . up to a colon (RFC 3986). A Windows drive
    // letter reads as one too, and is refused with the other absolute paths.
    if let Some((scheme, _)) = uri.split_once(':')
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return Err(format!(
            "its uri {} is neither a data: URI nor a path relative to the model; download the \
             file next to the model and name it by that relative path",
            quoted(uri)
        ));
    }
    let name = percent_decode(uri).ok_or_else(|| format!("its uri {} has a bad %-escape", quoted(uri)))?;
    // Checked once decoded: `%2Fetc%2Fpasswd` is `/etc/passwd`.
    if Path::new(&name).components().any(|c| matches!(c, Component::RootDir | Component::Prefix(_))) {
        return Err(format!(
            "its uri {} is an absolute path, which this program does not follow; put the file \
             next to the model and name it by a path relative to the model",
            quoted(uri)
        ));
    }
    let dir = match beside {
        Beside::Folder(dir) => dir,
        Beside::Given(files) => {
            return given(files, Path::new(&name)).map(Located::Given).map_err(|refused| match refused {
                Refused::Outside => outside(uri),
                Refused::Unreadable(_) => format!(
                    "it is the file {}, which was not handed over with the model; hand over the \
                     model's folder, or the files it names with it",
                    quoted(&name)
                ),
            });
        }
        Beside::None => {
            let name = quoted(&name);
            return Err(format!(
                "it is the file {name}, but the model was given without a folder to look in"
            ));
        }
    };
    let shown = printable(&dir.join(&name).display().to_string()).into_owned();
    // Where the name really leads, `..` and links followed, before anything is opened.
    let path = inside(dir, Path::new(&name)).map_err(|refused| match refused {
        Refused::Unreadable(e) => missing(&shown, e),
        Refused::Outside => outside(uri),
    })?;
    // Only a regular file (or a link to one), asked before opening it.
    let metadata = std::fs::metadata(&path).map_err(|e| missing(&shown, e))?;
    if !metadata.is_file() {
        return Err(format!("{shown} is not a regular file; a model's buffers and images must be files"));
    }
    Ok(Located::File { path, shown, size: metadata.len() })
}

/// The bytes at `located`: the `data:` URI's, decoded, or at most `length` + 3 of the file's.
pub fn read(located: &Located, length: usize) -> Result<Vec<u8>, String> {
    match located {
        Located::Data(encoded) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| format!("its data: URI is not valid base64 ({e})")),
        Located::Given(bytes) => Ok(bytes[..bytes.len().min(length.saturating_add(3))].to_vec()),
        Located::File { path, shown, .. } => {
            let file = std::fs::File::open(path).map_err(|e| missing(shown, e))?;
            let mut bytes = Vec::new();
            file.take(length as u64 + 3).read_to_end(&mut bytes).map_err(|e| missing(shown, e))?;
            Ok(bytes)
        }
    }
}

/// A uri that leads out of the model's folder, as a message.
fn outside(uri: &str) -> String {
    format!(
        "its uri {} leads outside the model's folder, which a model may not read; put the file \
         in the model's folder and name it by a path inside it",
        quoted(uri)
    )
}

/// A file the model names that cannot be read, as a message.
fn missing(shown: &str, e: std::io::Error) -> String {
    format!("cannot read {shown} ({e}); put the files the model names next to it")
}

/// `%20` and the like back to the bytes they stand for (URIs escape spaces and non-ASCII names).
pub fn percent_decode(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode() {
        assert_eq!(percent_decode("my%20fox.bin").as_deref(), Some("my fox.bin"));
        assert_eq!(percent_decode("plain.bin").as_deref(), Some("plain.bin"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("bad%zz"), None);
    }

    #[test]
    fn uris_that_are_not_files_are_refused() {
        assert!(
            read_uri("https://example.com/a.bin", Beside::None, 4)
                .unwrap_err()
                .contains("neither a data: URI")
        );
        assert!(read_uri("file:///etc/passwd", Beside::None, 4).unwrap_err().contains("neither a data: URI"));
        assert!(read_uri("C:/models/a.bin", Beside::None, 4).unwrap_err().contains("neither a data: URI"));
        assert!(
            read_uri("data:application/octet-stream,AAAA", Beside::None, 4).unwrap_err().contains("base64")
        );
        assert_eq!(read_uri("data:application/octet-stream;base64,AAEC", Beside::None, 3), Ok(vec![0, 1, 2]));
        assert!(read_uri("a.bin", Beside::None, 4).unwrap_err().contains("without a folder"));
        // Files handed over by name (a web page's): found by the decoded path, `..` followed, never
        // out of the folder.
        let files = [("a b.bin".to_string(), vec![1, 2, 3, 4, 5, 6, 7, 8])];
        assert_eq!(read_uri("a%20b.bin", Beside::Given(&files), 4), Ok(vec![1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(read_uri("x/../a%20b.bin", Beside::Given(&files), 1), Ok(vec![1, 2, 3, 4]));
        assert!(read_uri("../a%20b.bin", Beside::Given(&files), 4).unwrap_err().contains("outside"));
        assert!(read_uri("gone.bin", Beside::Given(&files), 4).unwrap_err().contains("not handed over"));
    }

    #[test]
    fn paths_that_leave_the_models_folder_are_refused_before_anything_is_read() {
        // A model folder with a buffer in a subfolder, and a file beside the model folder.
        let dir = tempfile::tempdir().unwrap();
        let models = dir.path().join("models");
        std::fs::create_dir_all(models.join("buffers")).unwrap();
        std::fs::write(dir.path().join("secret.bin"), [7u8, 8, 9]).unwrap();
        std::fs::write(models.join("buffers/body.bin"), [1u8, 2, 3]).unwrap();
        let absolute = dir.path().join("secret.bin");
        let absolute = absolute.to_str().unwrap();
        // The file is there and readable, so only the rule can refuse it, however it is spelled.
        let escaped = absolute.replace('/', "%2F");
        for uri in [absolute, escaped.as_str()] {
            let error = read_uri(uri, Beside::Folder(&models), 3).unwrap_err();
            assert!(error.contains("absolute path") && !error.contains('\n'), "{uri}: {error}");
        }
        for uri in ["../secret.bin", "./..%2Fsecret.bin", "buffers/../../secret.bin"] {
            let error = read_uri(uri, Beside::Folder(&models), 3).unwrap_err();
            assert!(error.contains("leads outside the model's folder"), "{uri}: {error}");
        }
        // A link in the folder that points out of it is outside too; one that stays in is fine.
        std::os::unix::fs::symlink(dir.path().join("secret.bin"), models.join("link.bin")).unwrap();
        assert!(read_uri("link.bin", Beside::Folder(&models), 3).unwrap_err().contains("outside"));
        std::os::unix::fs::symlink("buffers/body.bin", models.join("inside.bin")).unwrap();
        assert_eq!(read_uri("inside.bin", Beside::Folder(&models), 3), Ok(vec![1, 2, 3]));
        // `..` that comes back in is inside.
        assert_eq!(read_uri("buffers/../buffers/body.bin", Beside::Folder(&models), 3), Ok(vec![1, 2, 3]));
        // A folder is not a buffer.
        assert!(read_uri("buffers", Beside::Folder(&models), 3).unwrap_err().contains("not a regular file"));
    }
}
