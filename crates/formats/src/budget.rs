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
//! pictures; a face has a few dozen targets on tens of thousands of vertices), and low enough
//! that a model within all of them stays under 1 GiB loaded and drawn.

/// Bytes of image files a model's textures may keep: 128 MiB. An exported model holds them
/// about three times over while its file is put together, and a `.gltf` a third more in base64.
pub const IMAGE_BYTES: u64 = 128 << 20;

/// Pixels a model's textures may hold, decoded: 8192 x 8192, as many as the largest one image
/// (`material::MAX_PIXELS`), 256 MiB in RGBA, a third more with its smaller copies on the GPU.
pub const PIXELS: u64 = 8192 * 8192;

/// Morph displacements a model may keep: vertices x targets, over all meshes, 2^23. Each is a
/// position and perhaps a normal, 16 bytes each: up to 256 MiB.
pub const DISPLACEMENTS: u64 = 1 << 23;

/// Animation keys a model may keep: keys x channels over all its clips, 2^23, a weights channel
/// counting once per morph target it moves (it becomes one channel each). A key holds its time
/// and up to three values of 16 bytes (CUBICSPLINE's tangents): 52 bytes at most, 436 MiB.
pub const KEYS: u64 = 1 << 23;

/// Bytes a model's compressed streams may decode to: 256 MiB, counted as the file declares them
/// (a meshopt buffer's `byteLength`, a Draco mesh's accessors) before any is decoded. A stream of a
/// few bytes may stand for millions of identical vertices; 256 MiB is some 4 million vertices with
/// a position, normal, texture coordinates, joints and weights each.
pub const DECODED_BYTES: u64 = 256 << 20;

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
}
