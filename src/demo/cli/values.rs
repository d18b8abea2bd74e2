//! What a flag's value must look like, and the words that say so: text (UTF-8), a file's path (not
//! a folder, given once), a PNG's name, an MD5 model's name, a size, a camera.

use lexopt::Parser;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The value after `flag`, as text; `what` names it in the message when it is missing.
pub fn text(parser: &mut Parser, flag: &str, what: &str) -> Result<String, String> {
    let value = parser.value().map_err(|_| format!("{flag} needs a value: {flag} {what}"))?;
    value.into_string().map_err(|v| format!("{flag}'s value {v:?} is not valid UTF-8"))
}

/// The value after `flag`, as a path: any bytes the system allows in a file name, or `-` for
/// standard output, but not a name that can only be a folder.
pub fn path(parser: &mut Parser, flag: &str, what: &str) -> Result<PathBuf, String> {
    let value = parser.value().map_err(|_| format!("{flag} needs a value: {flag} {what}"))?;
    if names_a_folder(&value) {
        return Err(format!(
            "{flag} wants a file name like {what}, not {value:?}, which can only be a folder"
        ));
    }
    Ok(PathBuf::from(value))
}

/// The flags that name a file are given once: a second `--dump b.json` would otherwise silently
/// be the only file written. (`--blend`, `--additive`, `--mask`, `--reach`, `--morph` and `--hide`
/// add up; `--fade-to`, `--look-at`, and a second `--pole` or END for one chain are refused; any
/// other flag given twice keeps its last value.)
pub fn once<T>(slot: &Option<T>, flag: &str) -> Result<(), String> {
    match slot {
        Some(_) => Err(format!("{flag} is given twice: one run takes one {flag} file")),
        None => Ok(()),
    }
}

/// Whether `path` can never be a file: empty, or ending in `/`, `.` or `..` (`/`, `.`, `..`,
/// `folder/`, `folder/.`).
pub fn names_a_folder(path: &OsStr) -> bool {
    let last = path.as_encoded_bytes().rsplit(|&b| b == b'/').next().unwrap_or_default();
    matches!(last, b"" | b"." | b"..")
}

/// A screenshot's path, if the picture can go there: the program writes PNG, so a name that says
/// another format (`shot.jpg`) would be a PNG under a wrong name. A name without an extension
/// (`-`, `/dev/stdout`) takes the PNG as it is.
pub fn png(path: PathBuf) -> Result<PathBuf, String> {
    match path.extension() {
        Some(e) if !e.eq_ignore_ascii_case("png") => {
            Err(format!("--screenshot writes PNG pictures: name it FILE.png, not {path:?}"))
        }
        _ => Ok(path),
    }
}

/// Whether `path` ends in `.md5mesh`, in any letter case: an MD5 model.
pub fn is_md5mesh(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("md5mesh"))
}

/// `WIDTHxHEIGHT` in pixels, each 1 to 16384.
pub fn parse_size(v: &str) -> Option<(u32, u32)> {
    let (w, h) = v.split_once(['x', 'X'])?;
    let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
    let ok = |n: u32| (1..=16384).contains(&n);
    (ok(w) && ok(h)).then_some((w, h))
}

/// `YAW,PITCH[,ZOOM]`: two angles in degrees (-360 to 360) and a zoom (0.2 to 20, default 1).
pub fn parse_camera(v: &str) -> Option<(f32, f32, f32)> {
    let numbers: Vec<f32> = v.split(',').map(|n| n.trim().parse::<f32>().ok()).collect::<Option<_>>()?;
    let angle = |a: f32| (-360.0..=360.0).contains(&a);
    match numbers[..] {
        [yaw, pitch] if angle(yaw) && angle(pitch) => Some((yaw, pitch, 1.0)),
        [yaw, pitch, zoom] if angle(yaw) && angle(pitch) && (0.2..=20.0).contains(&zoom) => {
            Some((yaw, pitch, zoom))
        }
        _ => None,
    }
}
