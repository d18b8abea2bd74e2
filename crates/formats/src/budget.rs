//! What one model may cost in memory: a budget for the whole model per kind of thing it keeps,
//! counted once per source, not a limit per object.
//!
//! A limit on one object does not bound a file: objects may point at each other. Six images may
//! name one 256 MB file; 600 images one buffer view; 3,000 morph targets one sparse accessor (a
//! few bytes that stand for 16,384 vertices each); one animation sampler may move the morph
//! weights of twelve nodes. Each pointer costs the file a few bytes and the reader a copy, so a
//! file of a few kilobytes asked for gigabytes. So the loader shares what is shared (an image
//! source is read once, however many images name it) and spends every copy it keeps from one
//! budget per model ([`Budget`]):
//!
//! | budget | what it counts | when a model passes it |
//! |---|---|---|
//! | [`IMAGE_BYTES`] | bytes of the image files its textures use, each source once | the textures past it are drawn without, with a note |
//! | [`PIXELS`] | pixels of those images, decoded | the largest are drawn at half their width and height until all fit, with a note |
//! | [`DISPLACEMENTS`] | vertices x morph targets, over all meshes | the targets of the mesh past it are left out, with a note |
//! | [`KEYS`] | animation keys x channels, a weights channel once per morph target | translation, rotation and scale keys past it: refused; a weights channel past it: left out, with a note |
//! | [`DECODED_BYTES`] | bytes that compressed meshes (Draco, meshopt) decode to, as the file declares them | refused, before that stream is decoded |
//!
//! Each is well above what real models hold (a character's textures are a few 2048 x 2048
//! pictures; a face has a few dozen targets on tens of thousands of vertices).
//!
//! Budgets each within their limit can still add up, and what a file's objects point at is not
//! all a model costs: the program builds from them. A mesh placed by 2,500 nodes becomes 2,500
//! copies of its vertices (each placed where its node puts it, as the method needs); four primitives
//! may share one accessor of 16 million vertices. So one more budget bounds the whole
//! ([`Holding`], [`MODEL_BYTES`]): the vertices, triangles, bones, animation keys (counted by what
//! their interpolation stores), morph displacements and decoded pixels the program will hold, each
//! at what it costs in bytes, summed into one figure. It is worked out from the file's counts
//! before anything is built, a mesh counted once per node that places it; past it the model is
//! refused in one line naming its biggest part. The pixels, known only once the images' headers
//! are read, get what the rest leaves ([`Holding::pixels_left`]): the largest pictures are drawn
//! smaller until they fit. An MD5 model's files are bounded by their size ([`MD5_BYTES`]), looked
//! at before they are read.

/// Bytes of image files a model's textures may keep: 128 MiB. The glTF export writes them as it
/// goes, without a second copy (`gltf_export.rs`); only the whole file made in memory, for the
/// web page and the tests, holds them twice.
pub const IMAGE_BYTES: u64 = 128 << 20;

/// Pixels a model's textures may hold, decoded: 8192 x 8192, as many as the largest one image
/// (`material::MAX_PIXELS`), 256 MiB in RGBA, a third more with its smaller copies on the GPU.
pub const PIXELS: u64 = 8192 * 8192;

/// Morph displacements a model may keep: vertices x targets, over all meshes, 2^23. Each is a
/// position and perhaps a normal, 16 bytes each: up to 256 MiB.
pub const DISPLACEMENTS: u64 = 1 << 23;

/// Animation keys a model may keep: keys x channels over all its clips, 2^23, a weights channel
/// counting once per morph target it moves (it becomes one channel each). A key holds its time
/// and up to three values of 16 bytes (CUBICSPLINE's tangents): 52 bytes at most, 416 MiB.
pub const KEYS: u64 = 1 << 23;

/// Bytes a model's compressed streams may decode to: 256 MiB, counted as the file declares them
/// (a meshopt buffer's `byteLength`, a Draco mesh's accessors) before any is decoded. A stream of a
/// few bytes may stand for millions of identical vertices; 256 MiB is some 4 million vertices with
/// a position, normal, texture coordinates, joints and weights each.
pub const DECODED_BYTES: u64 = 256 << 20;

/// What one model may hold once built, in bytes, over all its parts ([`Holding`]): 768 MiB. With
/// the file's own bytes while it is read and the program around it, under 1 GiB.
pub const MODEL_BYTES: u64 = 768 << 20;

/// What a vertex costs the program, in bytes: its bind position, normal, influences and texture
/// coordinates in the model; its skinned position and normal each frame; the copies drawing
/// uploads. Measured: a mesh of 4,096 vertices placed by 16 and by 256 nodes, `--dump`'s peak
/// (`/usr/bin/time -v`) grew by 148 bytes a vertex with its triangles, 68 for `--info`.
pub const VERTEX_BYTES: u64 = 128;

/// A triangle (or a line): its corners, its edges, the index buffer drawing uploads.
pub const TRIANGLE_BYTES: u64 = 40;

/// A bone: its name, rest and world transforms, its palette matrix, its joint slots.
pub const BONE_BYTES: u64 = 512;

/// A morph displacement: a position and a normal, 16 bytes each.
pub const DISPLACEMENT_BYTES: u64 = 32;

/// A decoded pixel: RGBA, and a third more for its smaller copies on the GPU (which, drawn by
/// Mesa's llvmpipe, are in main memory too); rounded up for the halving copy while it is made.
pub const PIXEL_BYTES: u64 = 8;

/// The bytes of an MD5 model's files together, the `.md5mesh` and its `.md5anim` files: 32 MiB,
/// twenty times what id's largest hold. Each is looked at before it is read: a mesh past it is
/// refused, an animation past it left out with a note. (Text is dense: a number of two bytes may
/// become a key of twenty.)
pub const MD5_BYTES: u64 = 32 << 20;

/// What a model will hold once built, counted from its file before anything is: each part, and
/// the bytes it costs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Holding {
    pub vertices: u64,
    pub triangles: u64,
    pub bones: u64,
    /// The animation keys' bytes, as their channels store them: a time (4 bytes) and a value per
    /// key (a translation or scale 12, a rotation 16, a morph weight 4), three values a key for
    /// CUBICSPLINE (the tangents); a channel that moves several morph targets, its times once per
    /// target (each becomes a channel of its own).
    pub key_bytes: u64,
    pub displacements: u64,
}

impl Holding {
    /// Each part's bytes, named as the message says them.
    pub fn parts(&self) -> [(&'static str, u64, u64); 5] {
        let bytes = |n: u64, each: u64| n.saturating_mul(each);
        [
            ("vertices", self.vertices, bytes(self.vertices, VERTEX_BYTES)),
            ("triangles and lines", self.triangles, bytes(self.triangles, TRIANGLE_BYTES)),
            ("bones", self.bones, bytes(self.bones, BONE_BYTES)),
            ("bytes of animation keys", self.key_bytes, self.key_bytes),
            ("morph displacements", self.displacements, bytes(self.displacements, DISPLACEMENT_BYTES)),
        ]
    }

    /// The bytes of all the parts together.
    pub fn bytes(&self) -> u64 {
        self.parts().iter().fold(0u64, |sum, &(_, _, bytes)| sum.saturating_add(bytes))
    }

    /// Refuses a model past [`MODEL_BYTES`], in words naming its biggest part: `the model would
    /// hold 1.07 GB once built, past its budget of 0.81 GB: most of it 8388608 vertices (1.07 GB; a
    /// mesh counts once for each node that places it)`.
    pub fn check(&self) -> Result<(), String> {
        let total = self.bytes();
        if total <= MODEL_BYTES {
            return Ok(());
        }
        let (what, count, bytes) =
            self.parts().into_iter().max_by_key(|&(_, _, bytes)| bytes).unwrap_or_default();
        let gb = |b: u64| b as f64 / 1e9;
        let placed = match what {
            "bones" | "bytes of animation keys" => "",
            _ => "; a mesh counts once for each node that places it",
        };
        Err(format!(
            "the model would hold {:.2} GB once built, past its budget of {:.2} GB: most of it {count} {what} \
             ({:.2} GB{placed})",
            gb(total),
            gb(MODEL_BYTES),
            gb(bytes)
        ))
    }

    /// The pixels the textures may hold besides: what [`MODEL_BYTES`] leaves, and at most [`PIXELS`].
    pub fn pixels_left(&self) -> u64 {
        (MODEL_BYTES.saturating_sub(self.bytes()) / PIXEL_BYTES).min(PIXELS)
    }
}

/// One budget of one model: what it counts, how much it allows, how much is spent.
#[derive(Clone, Debug)]
pub struct Budget {
    /// What it counts, plural, as messages say it: "image bytes", "animation keys".
    pub unit: &'static str,
    pub limit: u64,
    spent: u64,
}

impl Budget {
    pub fn new(unit: &'static str, limit: u64) -> Budget {
        Budget { unit, limit, spent: 0 }
    }

    /// What is left to spend.
    pub fn left(&self) -> u64 {
        self.limit - self.spent
    }

    /// Spends `n` if it fits; else spends nothing and says, in words that name the budget, why
    /// not: `101 animation keys would pass the model's budget of 1000 (900 already spent)`.
    pub fn spend(&mut self, n: u64) -> Result<(), String> {
        if n > self.left() {
            return Err(format!(
                "{n} {} would pass the model's budget of {} ({} already spent)",
                self.unit, self.limit, self.spent
            ));
        }
        self.spent += n;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Budget;

    #[test]
    fn a_budget_spends_what_fits_and_names_itself_when_it_does_not() {
        let mut keys = Budget::new("animation keys", 1000);
        assert_eq!(keys.spend(900), Ok(()));
        let why = keys.spend(101).unwrap_err();
        assert_eq!(why, "101 animation keys would pass the model's budget of 1000 (900 already spent)");
        // Nothing was spent by the refusal: what fits still does.
        assert_eq!(keys.spend(100), Ok(()));
        assert_eq!(keys.left(), 0);
        assert!(keys.spend(u64::MAX).is_err());
    }

    #[test]
    fn a_holding_sums_its_parts_and_names_the_biggest_when_past() {
        use super::{Holding, MODEL_BYTES, PIXEL_BYTES, PIXELS, VERTEX_BYTES};
        let small = Holding { vertices: 1000, triangles: 2000, bones: 20, ..Holding::default() };
        assert_eq!(small.check(), Ok(()));
        assert_eq!(small.pixels_left(), PIXELS, "a small model leaves the textures their own budget");
        // Each part within its own budget, and all of them past the whole.
        let parts = Holding { vertices: 4 << 20, key_bytes: 300 << 20, displacements: 1 << 23, ..small };
        let why = parts.check().unwrap_err();
        assert!(why.contains("most of it 4194304 vertices (0.54 GB"), "{why}");
        // Just within: what is left goes to the pixels.
        let within = Holding { vertices: (MODEL_BYTES - (16 << 20)) / VERTEX_BYTES, ..Holding::default() };
        assert_eq!(within.check(), Ok(()));
        assert_eq!(within.pixels_left(), (16 << 20) / PIXEL_BYTES);
        let huge = Holding { vertices: u64::MAX, ..Holding::default() };
        assert!(huge.check().is_err() && huge.pixels_left() == 0);
    }
}
