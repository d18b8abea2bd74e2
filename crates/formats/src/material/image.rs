//! An image file as a model keeps it: what kind it is (PNG or JPEG, by its first bytes), its bytes
//! and its size, not yet decoded; and the pixels it decodes to when it is drawn
//! (`material/pixels.rs`). The kinds and the records only: the decoding is beside them.

/// The two kinds of image file a glTF texture may be (spec, "Images").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
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

    /// glTF's `mimeType` for it.
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
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
