//! Screenshots as PNG files, encoded a strip of rows at a time, and the name `P` gives them.
//!
//! A 16384 x 16384 picture is 1 GiB of pixels. The GPU (or Mesa's software renderer) already
//! holds it once; copying it out whole, then again to turn it upside down, tripled that. Here the
//! pixels come out a strip of rows at a time (about 4 MiB), each strip goes straight into the PNG
//! encoder's streaming writer, and the same buffer takes the next strip. Memory for the picture
//! outside the GPU: one strip. The one big allocation is fallible (`try_reserve_exact`), so a
//! machine short of memory gets one line instead of an abort.

use super::failure::Failure;
use std::io::{self, Write};
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

/// Bytes of pixels handed to the encoder at a time.
const STRIP_BYTES: usize = 4 << 20;

/// Saves a `width` x `height` RGBA picture as a PNG. `read_rows(top, strip)` fills `strip` with
/// whole rows of the picture, the first being row `top` counted from the top, top row first.
#[cfg(not(target_arch = "wasm32"))]
pub fn save_png(
    path: &Path,
    width: u32,
    height: u32,
    read_rows: &mut dyn FnMut(u32, &mut [u8]),
) -> Result<(), Failure> {
    let mut strip = strip(width, height)?;
    // A stop signal is also looked for before each strip: a plain picture compresses so well that
    // its first write to the file may come only at the end, after seconds of encoding.
    let stopped = || match super::signals::caught() {
        Some(signal) => Err(io::Error::other(format!("stopped by signal {signal}"))),
        None => Ok(()),
    };
    super::write_file(path, |out| encode(out, width, height, &mut strip, read_rows, &stopped))
}

/// The web page's screenshot: the PNG's bytes, for a download (`platform/web/download.rs`).
#[cfg(target_arch = "wasm32")]
pub fn png_bytes(
    width: u32,
    height: u32,
    read_rows: &mut dyn FnMut(u32, &mut [u8]),
) -> Result<Vec<u8>, Failure> {
    let mut strip = strip(width, height)?;
    let mut bytes = Vec::new();
    encode(&mut bytes, width, height, &mut strip, read_rows, &|| Ok(()))
        .map_err(|e| Failure::new(1, format!("cannot encode the screenshot: {e}")))?;
    Ok(bytes)
}

/// The buffer one strip of rows goes through, allocated without aborting on a big picture.
fn strip(width: u32, height: u32) -> Result<Vec<u8>, Failure> {
    let row_bytes = width as usize * 4;
    let rows_per_strip = (STRIP_BYTES / row_bytes).clamp(1, height as usize);
    let mut strip = Vec::new();
    strip.try_reserve_exact(rows_per_strip * row_bytes).map_err(|_| {
        Failure::new(
            1,
            format!("not enough memory to save a {width}x{height} screenshot; try a smaller --size"),
        )
    })?;
    strip.resize(rows_per_strip * row_bytes, 0);
    Ok(strip)
}

/// Encodes the picture into `out`, a strip of rows at a time through `strip`, asking `stopped`
/// before each strip whether to give up. A failure is the file's own error where the file failed
/// (a full disk, the size limit), which the encoder would hand back only as text.
fn encode(
    out: &mut dyn Write,
    width: u32,
    height: u32,
    strip: &mut [u8],
    read_rows: &mut dyn FnMut(u32, &mut [u8]),
    stopped: &dyn Fn() -> io::Result<()>,
) -> io::Result<()> {
    let mut file = Kept { out, error: None };
    let encoded = encode_into(&mut file, width, height, strip, read_rows, stopped);
    encoded.map_err(|e| file.error.take().unwrap_or(e))
}

/// The file under the encoder, keeping the first error it gave: `png` turns an error of the file
/// into text (`From<EncodingError> for io::Error`), and its kind, which says what to do, is lost.
struct Kept<'a> {
    out: &'a mut dyn Write,
    error: Option<io::Error>,
}

impl Kept<'_> {
    fn keep<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.inspect_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return; // `write_all` tries again
            }
            let again = e.raw_os_error().map(io::Error::from_raw_os_error);
            self.error
                .get_or_insert_with(|| again.unwrap_or_else(|| io::Error::new(e.kind(), e.to_string())));
        })
    }
}

impl Write for Kept<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.out.write(bytes);
        self.keep(written)
    }
    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.out.flush();
        self.keep(flushed)
    }
}

/// [`encode`]'s work, into the kept file.
fn encode_into(
    out: &mut Kept,
    width: u32,
    height: u32,
    strip: &mut [u8],
    read_rows: &mut dyn FnMut(u32, &mut [u8]),
    stopped: &dyn Fn() -> io::Result<()>,
) -> io::Result<()> {
    let row_bytes = width as usize * 4;
    let rows_per_strip = strip.len() / row_bytes;
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(io_error)?;
    // IDAT chunks of 256 KiB: bigger than the default 4 KiB, so chunk headers cost nothing.
    let mut stream = writer.stream_writer_with_size(256 << 10).map_err(io_error)?;
    let mut top = 0;
    while top < height {
        stopped()?;
        let rows = rows_per_strip.min((height - top) as usize);
        let strip = &mut strip[..rows * row_bytes];
        read_rows(top, strip);
        stream.write_all(strip)?;
        top += rows as u32;
    }
    stream.finish().map_err(io_error)?;
    writer.finish().map_err(io_error)
}

/// The encoder's error as an I/O error, keeping the I/O error itself when that is what it was (a
/// full disk, a closed pipe), so it is reported as such.
fn io_error(e: png::EncodingError) -> io::Error {
    match e {
        png::EncodingError::IoError(e) => e,
        other => io::Error::other(other),
    }
}

/// `skinning-CLIP-TIMEs.png` in the current folder, TIME being the clip's own time as the title shows
/// it, with `-2`, `-3`... if that name is taken. A model's clip is named by its file, and a name may
/// hold anything (`/`, `..`, control characters): in CLIP, all but letters, digits, `-` and `_`
/// become `_`, so the picture lands in the current folder under a name any shell can type.
pub fn screenshot_name(clip: &str, time: f32) -> String {
    let clip: String =
        clip.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    let base = format!("skinning-{clip}-{time:.3}s");
    (1..)
        .map(|n| if n == 1 { format!("{base}.png") } else { format!("{base}-{n}.png") })
        .find(|name| !std::path::Path::new(name).exists())
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_clip_name_cannot_lead_a_screenshot_out_of_the_folder() {
        let name = super::screenshot_name("../../x/\u{1b}[2Jwalk é", 1.5);
        assert_eq!(name, "skinning-______x___2Jwalk_é-1.500s.png");
    }
}
