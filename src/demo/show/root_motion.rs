//! A character that goes somewhere (`--root-motion`, chapter 17; the method is
//! `crates/method/src/root_motion.rs`): the bone whose travel is taken, found as the flags ask,
//! and the clip's [`RootMotion`] that a frame carries on or takes out. No OpenGL here; the floor
//! grid and the camera that follows are the window's (`draw/floor.rs`, `state.rs`).

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
pub fn root_motion(model: &Model, clip: &Clip, options: &MotionOptions) -> Result<Option<RootMotion>, String> {
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
}

impl Travelling {
    /// The travel of clip `clip` of `clips` as `options` ask (a wrong `--root-bone` refused here).
    pub fn new(model: &Model, clips: &[Clip], clip: usize, options: &MotionOptions) -> Result<Travelling, String> {
        let motion = root_motion(model, &clips[clip], options)?;
        Ok(Travelling { options: options.clone(), clip, motion, followed: Vec3::ZERO })
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
    /// the body on by since the last frame (nothing for `in-place` and `off`).
    pub fn follow(&mut self) -> Vec3 {
        let Some(motion) = self.motion.as_ref().filter(|m| m.mode == Mode::On) else { return Vec3::ZERO };
        let step = motion.travel.offset - self.followed;
        self.followed = motion.travel.offset;
        step
    }

    /// The floor's grid is drawn when the body travels across it (`on`).
    pub fn travels(&self) -> bool {
        self.motion.as_ref().is_some_and(|m| m.mode == Mode::On)
    }
}
