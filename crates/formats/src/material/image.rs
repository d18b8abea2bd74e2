//! An image file as a model keeps it: what kind it is (PNG or JPEG by its first bytes, TGA by its name), its bytes
//! and its size, not yet decoded; and the pixels it decodes to when it is drawn
//! (`material/pixels.rs`). The kinds and the records only: the decoding is beside them.

/// The kinds of image file a texture may be: the two a glTF texture may be (spec, "Images"), and
/// TGA, which MD5 models use (Doom 3's pictures are TGA files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Tga,
}

impl ImageKind {
    /// What the first bytes of a file say it is: PNG's and JPEG's own signatures.
    pub fn of(bytes: &[u8]) -> Option<ImageKind> {
        match bytes {
            [0x89, b'P', b'N', b'G', ..] => Some(ImageKind::Png),
            [0xFF, 0xD8, 0xFF, ..] => Some(ImageKind::Jpeg),
            _ => None,
        }
    }

    /// What the file `name` holding `bytes` is: its signature, else a TGA (which has none) if its
    /// name ends in `.tga`, in any letter case.
    pub fn of_file(name: &str, bytes: &[u8]) -> Option<ImageKind> {
        let tga = name.len() > 4 && name.is_char_boundary(name.len() - 4) && {
            name[name.len() - 4..].eq_ignore_ascii_case(".tga")
        };
        ImageKind::of(bytes).or(tga.then_some(ImageKind::Tga))
    }

    /// glTF's `mimeType` for it; None for a TGA, which a glTF file cannot hold (the export writes
    /// its pixels as a PNG: `gltf_export/looks.rs`).
    pub fn mime_type(self) -> Option<&'static str> {
        match self {
            ImageKind::Png => Some("image/png"),
            ImageKind::Jpeg => Some("image/jpeg"),
            ImageKind::Tga => None,
        }
    }
}

/// An image file as it was stored: what kind, its bytes, not yet decoded, and its size in pixels
/// as its header says (`pixels.rs`: `size`).
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub name: String,
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// A decoded image: `width` x `height` pixels of red, green, blue, alpha, a byte each, row by row
/// from the top (the row glTF's v = 0 names).
#[derive(Clone, Debug, PartialEq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// The most pixels one image may decode to: 8192 x 8192, a quarter of a GiB in RGBA. A file that
/// says more is most likely damaged, and would not fit a GPU's texture anyway. (All of a model's
/// textures together have a budget too: `budget::PIXELS`.)
pub const MAX_PIXELS: u64 = 8192 * 8192;
