//! What the demo shows and how the keys and the mouse change it. No windows and no OpenGL here, so
//! the window and the headless run share it, and its logic is tested like the rest.
//!
//! A [`Demo`] is the model with its clips and this frame's pose, plus small parts that each own one
//! idea: the [`Clock`] (time, speed, pause), the [`View`] (camera, layers, weight view, words), a
//! [`BendDrag`] while the user bends a bone, and the inspector's [`Selection`] (which vertex). Two
//! more files of `impl Demo` hold two more ideas: `state/inspection.rs` (the inspected vertex's
//! numbers) and `state/titles.rs` (the window title and the corner line).

use super::bend::BendDrag;
use super::cli::{Blend, Options, Skinning};
use super::clock::Clock;
use super::colors::{self, Colors};
use super::gpu_palette::fits_gpu;
use super::labels::Words;
use super::render::Frame;
use super::selection::Selection;
use super::skinned;
use super::status;
use super::view::{View, find_bone};
use glam::{Vec2, Vec3};
use skinning::camera::framing_model;
use skinning::clip::Clip;
use skinning::model::{Model, Pose};
use skinning::parallel::BlendThreads;
use std::time::{Duration, Instant};

pub const KEYS: &str = "\
green: the mesh as modelled (bind pose)   red: the mesh skinned this frame   blue: the bones
orange: skinned with dual quaternions     magenta: skinned on the GPU, over the CPU's
keys:
  Space        pause / resume          .  ,   step forward / back (paused)
  [  ]         scrub 0.1 s             +  -   speed x2 / /2 (0.125x to 8x)
  1 .. 9       clip 1 to 9             C      next clip (the article's: seed, bend, twist)
  B  M  S      show / hide bind mesh, skinned mesh, skeleton
  W            weight view: next bone  G      skinning on cpu / gpu / both
  D            blend: linear (lbs) / dual quaternions (dqs) / both
  V            inspect the next vertex N      bone names on / off
  R            reset time, speed, camera, bent bones
  P            save a screenshot       H      this list      Esc  quit
mouse:
  left-drag    orbit                   wheel  zoom
  left-click   near a vertex: inspect it; elsewhere: stop inspecting
  right-drag   on a joint: bend that bone (R undoes it)";

/// What a key asks of the window around the demo.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    Nothing,
    /// The demo changed; redraw.
    Changed,
    Screenshot,
    Help,
    /// The key asked for something this model cannot do; the one-line reason.
    Refused(String),
}

pub struct Demo {
    pub model: Model,
    pub clips: Vec<Clip>,
    /// Which of `clips` plays.
    pub clip: usize,
    pub clock: Clock,
    /// This frame's local and world transforms, palette and skinned positions.
    pub pose: Pose,
    pub view: View,
    pub skinning: Skinning,
    /// How it is blended: linear, dual quaternions, or both.
    pub method: Blend,
    /// Compare mode's dual-quaternion positions (`pose.skinned` then holds the linear blend's).
    pub compared: Vec<glam::Vec3A>,
    /// Something to tell the user once, such as why DQS fell back to linear blending.
    pub notice: Option<String>,
    /// Joint positions of the current pose, for drawing the bones.
    pub joints: Vec<Vec3>,
    /// Which bones are drawn (the skin's joints): the ones a right-drag can catch.
    pub drawn: Vec<bool>,
    /// CPU time of the last pose + blend.
    pub last_cpu: Duration,
    /// The vertex inspector's vertex.
    pub selection: Selection,
    /// The corner line, rewritten by every update in the same memory.
    pub status: String,
    /// A frame's CPU time, averaged, for the corner line (the session measures it).
    pub frame_cost: Option<Duration>,
    /// The threads that blend on the CPU (`--threads`, `parallel.rs`, `Session::pick_threads`).
    pub threads: BlendThreads,
    colors_dirty: bool,
    bend: Option<BendDrag>,
}

impl Demo {
    /// The demo of `model` playing `clips`, set up as `options` ask.
    pub fn new(model: Model, clips: Vec<Clip>, options: &Options) -> Result<Demo, String> {
        let clip = pick_clip(&clips, options)?;
        let weight_bone = match &options.weights {
            None => None,
            Some(name) => Some(find_bone(&model, name)?),
        };
        if options.skinning != Skinning::Cpu {
            fits_gpu(model.skin.joints().len())?;
        }
        if let Some(v) = options.inspect.filter(|&v| v >= model.skin.len()) {
            let last = model.skin.len().saturating_sub(1);
            return Err(format!("--inspect {v}: this model's vertices are 0 to {last}"));
        }
        let mut camera = framing_model(&model, &clips);
        if let Some((yaw, pitch, zoom)) = options.camera {
            camera.orbit(yaw.to_radians(), pitch.to_radians());
            camera.zoom_by(zoom);
        }
        let pose = Pose::new(&model);
        let joints = vec![Vec3::ZERO; model.skeleton.len()];
        let compared = vec![glam::Vec3A::ZERO; model.skin.len()];
        let drawn = model.joint_bones();
        let view = View::new(camera, &model, weight_bone, options.text);
        let mut demo = Demo {
            model,
            clips,
            clip,
            clock: Clock::new(options.time),
            pose,
            view,
            skinning: options.skinning,
            method: options.method,
            compared,
            notice: None,
            joints,
            drawn,
            last_cpu: Duration::ZERO,
            selection: Selection::new(options.inspect),
            status: String::with_capacity(status::CAPACITY),
            frame_cost: None,
            // One thread until the session knows who draws (`Session::pick_threads`).
            threads: BlendThreads::one(),
            colors_dirty: true,
            bend: None,
        };
        demo.update();
        // A model that dual quaternions cannot skin from the first frame is refused, not switched.
        if demo.method != options.method {
            return Err(demo.notice.take().unwrap_or_default());
        }
        Ok(demo)
    }

    pub fn clip(&self) -> &Clip {
        &self.clips[self.clip]
    }

    /// Runs the method for the current time: clip, world transforms, palette, and the blend unless
    /// only the GPU skins (`skinned::blend`).
    pub fn update(&mut self) {
        let started = Instant::now();
        let (model, clip, time) = (&self.model, &self.clips[self.clip], self.clock.time);
        self.pose.update_palette(model, clip, time);
        let (pose, compared) = (&mut self.pose, &mut self.compared);
        let threads = &self.threads;
        if let Err(e) = skinned::blend(pose, compared, model, self.skinning, self.method, threads) {
            // Dual quaternions cannot skin this frame: say why, once, and blend linearly from now on.
            self.notice =
                Some(format!("{}; switching to it", skinned::refusal(model, &e, clip.wrap(time) as f64)));
            self.method = Blend::Lbs;
            self.colors_dirty = true;
            let _linear_blending_takes_any_palette =
                skinned::blend(pose, compared, model, self.skinning, self.method, threads);
        }
        self.last_cpu = started.elapsed();
        for (bone, joint) in self.joints.iter_mut().enumerate() {
            *joint = self.pose.joint(bone);
        }
        self.write_status();
    }

    /// What the renderer should draw for a viewport of this size.
    pub fn frame(&self, width: u32, height: u32, scale: f64) -> Frame<'_> {
        let view = &self.view;
        Frame {
            view_projection: view.camera.view_projection(width, height),
            point_size: colors::POINT_SIZE * scale as f32,
            bind: view.show_bind,
            skinned: skinned::layers(
                &self.pose,
                &self.compared,
                self.skinning,
                self.method,
                view.show_skinned,
            ),
            bones: view.show_bones.then_some(&self.joints[..]),
            inspection: self.inspection(),
            words: view.show_text.then_some(Words {
                status: &self.status,
                names: view.show_names,
                scale: scale as f32,
            }),
        }
    }

    /// New colours for the skinned mesh and the bones, if the weight view changed since last asked.
    pub fn take_colors(&mut self) -> Option<Colors> {
        let plain = if self.method == Blend::Dqs { colors::ORANGE } else { colors::RED };
        std::mem::take(&mut self.colors_dirty).then(|| self.view.colors(&self.model, plain))
    }

    /// Handles a key, given as the character it types (" " for Space).
    pub fn key(&mut self, key: &str) -> Reply {
        let before = (self.clip, self.clock.time, self.clock.paused);
        let clock = &mut self.clock;
        match key.to_lowercase().as_str() {
            " " => clock.paused = !clock.paused,
            "." => clock.step(true),
            "," => clock.step(false),
            "]" => clock.scrub(true),
            "[" => clock.scrub(false),
            "+" | "=" => clock.faster(),
            "-" | "_" => clock.slower(),
            "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => {
                let wanted = key.parse::<usize>().unwrap_or(1) - 1;
                if wanted >= self.clips.len() {
                    let n = self.clips.len();
                    return Reply::Refused(format!(
                        "there is no clip {key}: this model has {n} (C steps through them)"
                    ));
                }
                self.clip = wanted;
            }
            "c" => self.clip = (self.clip + 1) % self.clips.len(),
            "b" => self.view.show_bind = !self.view.show_bind,
            "m" => self.view.show_skinned = !self.view.show_skinned,
            "s" => self.view.show_bones = !self.view.show_bones,
            "w" => {
                self.view.next_weight_bone(&self.model);
                self.colors_dirty = true;
            }
            "g" => match skinned::next_skinning(self.skinning, &self.model) {
                Ok(next) => self.skinning = next,
                Err(why) => return Reply::Refused(why),
            },
            "d" => {
                let time = self.clips[self.clip].wrap(self.clock.time) as f64;
                match skinned::next_method(self.method, &mut self.pose, &self.model, time) {
                    Ok(next) => self.method = next,
                    Err(why) => return Reply::Refused(why),
                }
                self.colors_dirty = true;
            }
            "v" => self.selection.next(self.model.skin.len()),
            "n" => self.view.show_names = !self.view.show_names,
            "r" => self.reset(),
            "p" => return Reply::Screenshot,
            "h" => return Reply::Help,
            _ => return Reply::Nothing,
        }
        self.update();
        // Paused on a new frame (just paused, a step, a scrub, another clip, a reset): print its numbers.
        let new_frame = before != (self.clip, self.clock.time, true) || key.eq_ignore_ascii_case("r");
        if self.clock.paused && new_frame && self.selection.vertex.is_some() {
            self.selection.report_due = true;
        }
        Reply::Changed
    }

    fn reset(&mut self) {
        self.clock.reset();
        self.view.camera = self.view.home;
        self.bend = None;
        self.pose.bend.fill(glam::Quat::IDENTITY);
    }

    /// Right button pressed at `cursor`: start bending the bone whose joint is nearest, if one is
    /// within `reach` pixels. Returns whether a bone was caught.
    pub fn start_bend(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) -> bool {
        let camera = &self.view.camera;
        self.bend = BendDrag::start(cursor, &self.joints, &self.drawn, camera, size, reach, &self.pose);
        self.bend.is_some()
    }

    /// The cursor moved during a right-drag: bend the caught bone to follow it.
    pub fn drag_bend(&mut self, cursor: Vec2) {
        let Some(drag) = self.bend else { return };
        if let Some(bend) = drag.bend_at(cursor) {
            self.pose.bend[drag.bone] = bend;
            self.update();
        }
    }

    pub fn end_bend(&mut self) {
        // A bend is a new frame too: print it once the drag is over.
        if self.bend.take().is_some() && self.clock.paused && self.selection.vertex.is_some() {
            self.selection.report_due = true;
        }
    }
}

/// The clip to start with: `--animation` (a name, else an index; default the first) for a model,
/// `--clip` for the article's scene. A wrong one is refused with the list to choose from.
pub fn pick_clip(clips: &[Clip], options: &Options) -> Result<usize, String> {
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    if options.model.is_some() {
        let Some(wanted) = &options.animation else { return Ok(0) };
        let by_index = wanted.parse::<usize>().ok().filter(|&i| i < clips.len());
        return names.iter().position(|n| n == wanted).or(by_index).ok_or_else(|| {
            format!(
                "unknown animation {wanted:?}: choose one of {} (or 0 to {})",
                names.join(", "),
                clips.len() - 1
            )
        });
    }
    names
        .iter()
        .position(|n| *n == options.clip)
        .ok_or_else(|| format!("unknown clip {:?}: choose one of {}", options.clip, names.join(", ")))
}

mod inspection;
mod titles;

#[cfg(test)]
mod tests;
