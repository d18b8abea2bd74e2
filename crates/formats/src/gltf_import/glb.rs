//! The `.glb` container: one file holding the JSON and the binary data (spec, "GLB File Format
//! Specification").
//!
//! A `.glb` is a 12-byte **header** (the magic `glTF`, version 2, the total length in bytes), then
//! **chunks**, each its length, its type and its data. The first chunk is the JSON; the second, if
//! there is one, is the `BIN` chunk that buffer 0 may point at. Every chunk is padded to a multiple
//! of 4 bytes (the JSON with spaces, `BIN` with zeros), so that the numbers in `BIN` stay aligned.
//!
//! Only what the header says is read: the JSON chunk, then the `BIN` chunk straight into the buffer
//! it becomes (a big model is in memory once, not twice), and nothing past the total length. A
//! file that does not start with a header is never read further than that.
//!
//! A JSON chunk whose length is not a multiple of 4 breaks the padding rule. The `BIN` chunk then
//! starts either right after the JSON or at the next multiple of 4; its type, `BIN\0`, can only be
//! found at one of the two, so the reading is unambiguous and the file is read, with a note.

use super::error::ImportError;
use std::io::{Read, Seek, SeekFrom};

/// Why a `.glb` could not be read: the file itself failed to read, or its container is wrong.
#[derive(Debug)]
pub enum Error {
    Io(std::io::Error),
    File(ImportError),
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<ImportError> for Error {
    fn from(e: ImportError) -> Self {
        Error::File(e)
    }
}

/// The two chunks of a `.glb`.
#[derive(Debug)]
pub struct Glb {
    pub json: Vec<u8>,
    pub bin: Option<Vec<u8>>,
}

const HEADER: u64 = 12;
const CHUNK_HEADER: u64 = 8;
const JSON: u32 = u32::from_le_bytes(*b"JSON");
const BIN: u32 = u32::from_le_bytes(*b"BIN\0");

/// Reads the `.glb` in `file` (`size` bytes long, starting with `glTF`): header, JSON chunk, and
/// `BIN` chunk if there is one. A broken padding rule is said in `notes`.
pub fn read<R: Read + Seek>(file: &mut R, size: u64, notes: &mut Vec<String>) -> Result<Glb, Error> {
    let damaged = |detail: String| Error::File(ImportError::BadGlb(detail));
    let mut header = [0u8; HEADER as usize];
    file.seek(SeekFrom::Start(0))?;
    if read_up_to(file, &mut header)? < header.len() {
        return Err(damaged(format!("the header needs 12 bytes, the file has {size}")));
    }
    let [.., v0, v1, v2, v3, l0, l1, l2, l3] = header;
    let (version, length) =
        (u32::from_le_bytes([v0, v1, v2, v3]), u64::from(u32::from_le_bytes([l0, l1, l2, l3])));
    if version != 2 {
        let detail = format!("a .glb of version {version}, this program reads version 2");
        return Err(ImportError::NotGltf(detail).into());
    }
    if length > size {
        return Err(damaged(format!("the header says {length} bytes, the file has {size} (cut short?)")));
    }
    // The JSON chunk, which must come first.
    let Some((json_length, kind)) = chunk_header(file, HEADER, length)? else {
        return Err(damaged(format!("the header says {length} bytes, too few for the JSON chunk's header")));
    };
    if kind != JSON {
        return Err(damaged("its first chunk is not the JSON chunk".into()));
    }
    let json_start = HEADER + CHUNK_HEADER;
    if u64::from(json_length) > length - json_start {
        return Err(damaged(format!(
            "the JSON chunk says {json_length} bytes, but the file ends {} bytes after its start",
            length - json_start
        )));
    }
    let json = read_exact_vec(file, json_start, json_length.into())?;

    // The BIN chunk: right after the JSON, or (when the JSON is not padded) at the next multiple of 4.
    let end = json_start + u64::from(json_length);
    let aligned = end.next_multiple_of(4);
    if aligned != end {
        notes.push(format!(
            "the .glb's JSON chunk is {json_length} bytes, not a multiple of 4 (glTF pads each chunk \
             to 4 bytes); read the chunk after it where its header was found"
        ));
    }
    let mut bin = None;
    for start in [end, aligned] {
        let Some((bin_length, BIN)) = chunk_header(file, start, length)? else { continue };
        let data = start + CHUNK_HEADER;
        if u64::from(bin_length) > length - data {
            return Err(damaged(format!(
                "the BIN chunk says {bin_length} bytes, but the file ends {} bytes after its start",
                length - data
            )));
        }
        bin = Some(read_exact_vec(file, data, bin_length.into())?);
        break;
    }
    Ok(Glb { json, bin })
}

/// The length and type of the chunk whose header starts at `at`, if a whole header fits before `end`.
fn chunk_header<R: Read + Seek>(file: &mut R, at: u64, end: u64) -> std::io::Result<Option<(u32, u32)>> {
    if at + CHUNK_HEADER > end {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(at))?;
    let mut bytes = [0u8; CHUNK_HEADER as usize];
    file.read_exact(&mut bytes)?;
    let [a, b, c, d, e, f, g, h] = bytes;
    Ok(Some((u32::from_le_bytes([a, b, c, d]), u32::from_le_bytes([e, f, g, h]))))
}

/// `length` bytes from `at`, in a vector of exactly that size (checked against the file's size
/// before, so a damaged length cannot ask for more memory than the file has).
fn read_exact_vec<R: Read + Seek>(file: &mut R, at: u64, length: u64) -> std::io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(at))?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(length as usize).map_err(|_| std::io::ErrorKind::OutOfMemory)?;
    file.take(length).read_to_end(&mut bytes)?;
    if (bytes.len() as u64) < length {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(bytes)
}

/// Fills as much of `buffer` as the file has; returns how many bytes that was.
pub fn read_up_to<R: Read>(file: &mut R, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.glb` of `json` and `bin`, with `gap` bytes between the JSON chunk and the BIN chunk's
    /// header, and the total length the header claims (None: the true one).
    fn glb(json: &[u8], gap: usize, bin: &[u8], claimed: Option<u32>) -> Vec<u8> {
        let total = 12 + 8 + json.len() + gap + 8 + bin.len();
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(claimed.unwrap_or(total as u32).to_le_bytes());
        out.extend((json.len() as u32).to_le_bytes());
        out.extend(b"JSON");
        out.extend(json);
        out.extend(std::iter::repeat_n(b' ', gap));
        out.extend((bin.len() as u32).to_le_bytes());
        out.extend(b"BIN\0");
        out.extend(bin);
        out
    }

    fn read_glb(bytes: &[u8]) -> (Result<Glb, Error>, Vec<String>) {
        let mut notes = Vec::new();
        (read(&mut std::io::Cursor::new(bytes), bytes.len() as u64, &mut notes), notes)
    }

    #[test]
    fn an_unpadded_json_chunk_finds_its_bin_chunk_either_way_and_says_so() {
        let (json, bin) = (b"{\"a\":1}", [1u8, 2, 3, 4]);
        // Padded as the spec asks: no note.
        let (glb_read, notes) = read_glb(&glb(b"{\"a\":12}", 0, &bin, None));
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(glb_read.expect("read").bin, Some(bin.to_vec()));
        // Seven bytes of JSON, the BIN chunk right after them, or at the next multiple of 4.
        for gap in [0, 1] {
            let (glb_read, notes) = read_glb(&glb(json, gap, &bin, None));
            let glb_read = glb_read.expect("read");
            assert_eq!(
                (glb_read.json.as_slice(), glb_read.bin),
                (&json[..], Some(bin.to_vec())),
                "gap {gap}"
            );
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(notes[0].contains("7 bytes, not a multiple of 4"), "{}", notes[0]);
        }
    }

    #[test]
    fn lengths_past_the_file_are_refused_and_bytes_past_the_header_length_are_not_read() {
        let message = |r: Result<Glb, Error>| match r {
            Err(Error::File(e)) => e.to_string(),
            Err(Error::Io(e)) => panic!("an I/O error: {e}"),
            Ok(_) => panic!("read"),
        };
        let whole = glb(b"{}  ", 0, &[9; 8], None);
        let (result, _) = read_glb(&whole[..whole.len() - 1]);
        assert!(message(result).contains("cut short"));
        // The header says the file ends before the BIN chunk: it is not read.
        let (result, _) = read_glb(&glb(b"{}  ", 0, &[9; 8], Some(24)));
        assert!(result.expect("read").bin.is_none());
        // A BIN chunk that claims more than the file has.
        let mut long = glb(b"{}  ", 0, &[9; 8], None);
        long[24..28].copy_from_slice(&1000u32.to_le_bytes());
        let (result, _) = read_glb(&long);
        assert!(message(result).contains("BIN chunk says 1000 bytes"));
        let (result, _) = read_glb(b"glTF\x02\0\0\0");
        assert!(message(result).contains("needs 12 bytes"));
    }
}
