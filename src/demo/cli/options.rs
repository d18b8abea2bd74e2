//! What the user asked for on the command line, and its limits: [`Options`], filled in by `mod.rs`
//! and read by everything that runs.

use super::layers::LayerFlags;
use super::morph::MorphSetting;
use crate::demo::cli::choices::{Methods, Skinning};
use skinning_formats::gltf_export::Container;
use skinning_method::clip::Clip;
use skinning_method::model::Axis;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub frames: Option<u64>,
    pub fixed_dt: Option<f64>,
    pub time: f64,
    pub screenshot: Option<PathBuf>,
    pub headless: bool,
    pub size: Option<(u32, u32)>,
    pub dump: Option<PathBuf>,
    pub clip: String,
    pub weights: Option<String>,
    pub skinning: Skinning,
    pub method: Methods,
    /// The camera's turn about the vertical and the horizontal axis in degrees, as a left-drag would
    /// make it, and its zoom, as the wheel would.
    pub camera: Option<(f32, f32, f32)>,
    pub stats: bool,
    /// The vertex the inspector starts on (`V` cycles, a click picks).
    pub inspect: Option<usize>,
    /// Words on screen (bone names, the corner line); `--no-text` turns them off for pixel tests.
    pub text: bool,
    /// A model file to show instead of the article's scene: glTF, or MD5 (an `.md5mesh`).
    pub model: Option<PathBuf>,
    /// Which of the model's animations plays: a name or an index (default: the first).
    pub animation: Option<String>,
    /// The axis of the model's numbers its character faces (`--front`), over what the loader
    /// found (glTF's +z; for MD5, what its feet say).
    pub front: Option<Axis>,
    /// Print what the model file holds, and exit.
    pub info: bool,
    /// Write the model shown (the article's scene or `--model`'s) with its own clips to this glTF
    /// file, stored as the extension says, and exit.
    pub export_gltf: Option<(PathBuf, Container)>,
    /// Write the model shown (the article's, or `--model`'s) as this `.md5mesh`, with an
    /// `.md5anim` per clip beside it, and exit.
    pub export_md5: Option<PathBuf>,
    /// `--force`: `--export-md5` may replace `.md5anim` files and pictures already there (never one
    /// the model was read from).
    pub force: bool,
    /// The skinned mesh as a lit surface (`--surface on|off`); None: on for a model, off for the
    /// article's outline.
    pub surface: Option<bool>,
    /// The normals layer (`--normals`): a short line along each skinned normal.
    pub normals: bool,
    /// The layers the picture starts without (`--hide`).
    pub hide: super::hide::Hidden,
    /// Threads that blend (`--threads`); None: all the machine has.
    pub threads: Option<usize>,
    /// From how many vertices they all blend (`--parallel-from`); None: `PARALLEL_FROM_VERTICES`.
    pub parallel_from: Option<usize>,
    /// Morph weights held over the clip's (`--morph`, `cli/morph.rs`).
    pub morphs: Vec<MorphSetting>,
    /// `--reach`, `--pole`, `--chain`, `--reach-weight`, `--soften` (`reach.rs`, chapter 12).
    pub reach: super::reach::ReachOptions,
    /// `--look-at`, `--look-forward`, `--look-limit` (`look.rs`, chapter 19).
    pub look: super::look::LookOptions,
    /// `--ground` (`ground.rs`, chapter 20): the floor the feet stand on.
    pub ground: Option<skinning_method::ground::Shape>,
    /// Several clips at once: `--blend`, `--additive`, `--mask`, `--fade`, `--sync` (`layers.rs`).
    pub layers: LayerFlags,
    /// The bone whose trail is drawn (`--trail`, `show/trail.rs`).
    pub trail: Option<String>,
    /// `--root-motion`, `--root-bone` (`motion.rs`, chapter 17).
    pub motion: super::motion::MotionOptions,
    /// How many characters of the model stand on a grid, each at its own phase (`--crowd`,
    /// `show/crowd.rs`); 1: the model alone.
    pub crowd: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            frames: None,
            fixed_dt: None,
            time: 0.0,
            screenshot: None,
            headless: false,
            size: None,
            dump: None,
            clip: "bend".to_string(),
            weights: None,
            skinning: Skinning::Cpu,
            method: Methods::Lbs,
            camera: None,
            stats: false,
            inspect: None,
            text: true,
            model: None,
            animation: None,
            front: None,
            info: false,
            export_gltf: None,
            export_md5: None,
            force: false,
            surface: None,
            normals: false,
            hide: Default::default(),
            threads: None,
            parallel_from: None,
            morphs: Vec::new(),
            reach: Default::default(),
            look: Default::default(),
            ground: None,
            layers: LayerFlags::default(),
            trail: None,
            motion: Default::default(),
            crowd: 1,
        }
    }
}

/// `--front AXIS`'s value: `x`, `+x`, `-x`, ... in any letter case.
pub fn front(v: &str) -> Result<Axis, String> {
    Axis::parse(v).ok_or(format!(
        "--front wants the axis the model faces in its own numbers: x, -x, y, -y, z or -z, not {v:?}"
    ))
}

/// The time step of `--dump` when `--fixed-dt` is not given: one frame at 60 frames a second.
pub const DUMP_DT: f64 = 1.0 / 60.0;

/// The largest animation time, in seconds (about 31 years), that `--time`, `--fixed-dt` and
/// `--frames` together may reach. Far past it an `f64` clock could no longer tell frames apart, and
/// at 1e308 it overflows into infinity, which JSON cannot hold.
pub const MAX_SECONDS: f64 = 1e9;

/// The most characters `--crowd` takes: each owns a pose (the Fox's is 56 KB), so ten thousand
/// Foxes hold over half a gigabyte; a bigger model is refused sooner (`show/crowd.rs`: `MAX_BYTES`).
pub const MAX_CROWD: usize = 10_000;

/// The most threads `--threads` takes: far more than any desktop has cores.
pub const MAX_THREADS: usize = 256;

impl Options {
    /// The clip to start with: `--animation` (default the first) for a model, `--clip` for the
    /// article's scene, found as every flag finds a name (`names.rs`). A wrong one is refused with
    /// the closest names.
    pub fn clip_index(&self, clips: &[Clip]) -> Result<usize, String> {
        match (&self.model, &self.animation) {
            (Some(_), None) => Ok(0),
            (Some(_), Some(wanted)) => find_clip("--animation", "animation", wanted, clips),
            (None, _) => find_clip("--clip", "clip", &self.clip, clips),
        }
    }
}

/// The clip `wanted` names among `clips`, for `flag` (a `what`: an animation of a model, a clip of
/// the article's), by the rules of `names.rs`.
pub fn find_clip(flag: &str, what: &str, wanted: &str, clips: &[Clip]) -> Result<usize, String> {
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    super::names::find(flag, what, wanted, &names)
}
