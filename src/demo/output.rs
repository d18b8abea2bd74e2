//! Writing the program's files: the `--dump` JSON and the PNG screenshots.

use super::failure::Failure;
use std::io::Write;
use std::path::Path;

/// Saves RGBA pixels (top row first) as a PNG.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), Failure> {
    write_atomically(path, |file| {
        let mut encoder = png::Encoder::new(file, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
        writer.write_image_data(rgba).map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)
    })
}

/// Writes a file through a temporary one beside it, so a failure never leaves half a file behind.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        Failure::new(1, format!("cannot write {}: {e} (is the folder there and writable?)", path.display()))
    };
    let name = path.file_name().ok_or_else(|| fail(std::io::Error::other("not a file name")))?;
    let mut temporary = path.to_path_buf();
    temporary.set_file_name(format!(".{}.{}.partial", name.to_string_lossy(), std::process::id()));
    let result = std::fs::File::create(&temporary).and_then(|file| {
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        std::fs::rename(&temporary, path)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map_err(fail)
}
