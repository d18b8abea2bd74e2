//! A character that goes somewhere (`--root-motion`, chapter 17; the method is
//! `crates/method/src/root_motion.rs`): the bone whose travel is taken, found as the flags ask,
//! and the clip's [`RootMotion`] that a frame carries on or takes out. No OpenGL here; the floor
//! grid and the camera that follows are the window's (`draw/floor_grid.rs`, `state.rs`).

use crate::demo::cli::motion::MotionOptions;
use crate::demo::cli::names;
use crate::demo::output::console;
use glam::Vec3;
use skinning_method::clip::Clip;
use skinning_method::frame::TakesTravel;
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use skinning_method::root_motion::{Mode, RootMotion, carrier};

/// `clip`'s root motion as `options` ask: None for `--root-motion off`, and for a model with no
/// bone that carries a body (the article's arm: no hips, and its root never moves), which a note
/// names. A wrong `--root-bone` is one line with the closest names.
pub fn root_motion(
    model: &Model,
    clip: &Clip,
    options: &MotionOptions,
) -> Result<Option<RootMotion>, String> {
    let mode = options.root_motion;
    if mode == Mode::Off {
        return Ok(None);
    }
    let skeleton = &model.skeleton;
    let bone = match &options.root_bone {
        Some(name) => {
            let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
            names::find("--root-bone", "bone", name, &names)?
        }
        None => match carrier(skeleton, clip) {
            Some(bone) => bone,
            None => {
                console::note_once(&format!(
                    "--root-motion {}: this model has no hips (no bone named Hips, Hip or Pelvis) and {} \
                     does not move its root, so nothing travels: it plays as stored (--root-bone BONE \
                     names the bone that carries the body)",
                    mode.name(),
                    quoted(&clip.name)
                ));
                return Ok(None);
            }
        },
    };
    let up = model.axes.up().vector();
    Ok(Some(RootMotion::new(skeleton, clip, bone, up, mode)))
}

/// The window's root motion: the clip that plays, its travel (made again when another clip
/// plays), and how far the camera has followed it.
pub struct Travelling {
    options: MotionOptions,
    clip: usize,
    pub motion: Option<RootMotion>,
    /// The travel the camera has followed so far, in the model's numbers.
    followed: Vec3,
    /// The floor under a body that travels, and its grid's lines as it is drawn this frame.
    floor: Floor,
    grid: Vec<Vec3>,
    /// The ground `--ground` stands the feet on, as lines (`ground_lines.rs`), drawn in its place.
    ground: Vec<Vec3>,
}

/// The floor a body travels on: the plane across up through the mesh's lowest point, its grid
/// [`GRID_LINES`] lines each way, `step` apart (a round number near a quarter of the body's height).
struct Floor {
    up: Vec3,
    left: Vec3,
    front: Vec3,
    height: f32,
    step: f32,
}

/// How many lines the floor's grid has each way; they move on by whole steps as the body goes.
pub const GRID_LINES: usize = 21;

impl Floor {
    fn of(model: &Model) -> Floor {
        let axes = model.axes;
        let up = axes.up().vector();
        let heights = model.skin.bind().iter().map(|p| Vec3::from(*p).dot(up));
        let (low, high) = heights.fold((f32::MAX, f32::MIN), |(l, h), y| (l.min(y), h.max(y)));
        let size = if high > low { high - low } else { 1.0 };
        // 1, 2 or 5 times a power of ten.
        let power = 10f32.powf((size / 4.0).log10().floor());
        let step =
            [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|s| *s >= size / 5.0).unwrap_or(power);
        let height = if low <= high { low } else { 0.0 };
        Floor { up, left: axes.left(), front: axes.front().vector(), height, step }
    }

    /// The grid's lines, two ends each, around `centre` (where the body is), kept to whole steps
    /// so that the lines stay where they are on the floor while the body goes over them.
    fn lines(&self, centre: Vec3, out: &mut Vec<Vec3>) {
        let snap = |axis: Vec3| (centre.dot(axis) / self.step).round() * self.step * axis;
        let middle = snap(self.left) + snap(self.front) + self.height * self.up;
        let half = (GRID_LINES / 2) as f32 * self.step;
        out.clear();
        for i in 0..GRID_LINES {
            let at = i as f32 * self.step - half;
            for (across, along) in [(self.left, self.front), (self.front, self.left)] {
                out.push(middle + at * across - half * along);
                out.push(middle + at * across + half * along);
            }
        }
    }
}

impl Travelling {
    /// The travel of clip `clip` of `clips` as `options` ask (a wrong `--root-bone` refused here).
    pub fn new(
        model: &Model,
        clips: &[Clip],
        clip: usize,
        options: &MotionOptions,
    ) -> Result<Travelling, String> {
        let motion = root_motion(model, &clips[clip], options)?;
        let grid = Vec::with_capacity(4 * GRID_LINES);
        Ok(Travelling {
            options: options.clone(),
            clip,
            motion,
            followed: Vec3::ZERO,
            floor: Floor::of(model),
            grid,
            ground: Vec::new(),
        })
    }

    /// This frame's hook after step 1 (`frame.rs`: `TakesTravel`), for `clip`, the clip that plays:
    /// another clip gets its own travel, from where the last one had taken the body.
    pub fn hook(&mut self, model: &Model, clips: &[Clip], clip: usize) -> Option<&mut dyn TakesTravel> {
        if clip != self.clip {
            // The bone was found once already; a model without one noted it once.
            self.motion = root_motion(model, &clips[clip], &self.options).ok().flatten();
            self.clip = clip;
        }
        self.motion.as_mut().map(|m| m as &mut dyn TakesTravel)
    }

    /// How far the camera should move after this frame, in the model's numbers: what `on` carried
    /// the body on by since the last frame (nothing for `in-place` and `off`); the floor's grid
    /// goes with it.
    pub fn follow(&mut self) -> Vec3 {
        let Some(motion) = self.motion.as_ref().filter(|m| m.mode == Mode::On) else { return Vec3::ZERO };
        let step = motion.travel.offset - self.followed;
        self.followed = motion.travel.offset;
        self.floor.lines(self.followed, &mut self.grid);
        step
    }

    /// With the lines of the ground the feet stand on (none without `--ground`), drawn for the floor.
    pub fn on_ground(self, ground: Vec<Vec3>) -> Travelling {
        Travelling { ground, ..self }
    }

    /// The floor's grid, two ends per line: the ground's with `--ground`, else when the body
    /// travels across it (`on`).
    pub fn grid(&self) -> Option<&[Vec3]> {
        if !self.ground.is_empty() {
            return Some(&self.ground);
        }
        (!self.grid.is_empty() && self.motion.as_ref().is_some_and(|m| m.mode == Mode::On))
            .then_some(&self.grid[..])
    }
}
