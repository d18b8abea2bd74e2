//! What the demo shows and how the keys and the mouse change it. No windows and no OpenGL here, so
//! the window and the headless run share it, and its logic is tested like the rest.
//!
//! A [`Demo`] is the model with its clips and this frame's pose, plus three small parts that each
//! own one idea: the [`Clock`] (time, speed, pause), the [`View`] (camera, layers, weight view) and a
//! [`BendDrag`] while the user bends a bone.

use super::bend::BendDrag;
use super::cli::{Options, Skinning};
use super::clock::Clock;
use super::colors::{self, Colors};
use super::gpu_skin::fits_gpu;
use super::render::Frame;
use super::view::{View, weight_of_bone};
use glam::{Vec2, Vec3};
use skinning::camera::framing_model;
use skinning::clip::Clip;
use skinning::model::{Model, Pose};
use skinning::skeleton::BoneId;
use std::time::{Duration, Instant};

pub const KEYS: &str = "\
green: the mesh as modelled (bind pose)   red: the mesh skinned this frame   blue: the bones
keys:
  Space        pause / resume          .  ,   step forward / back (paused)
  [  ]         scrub 0.1 s             +  -   speed x2 / /2 (0.125x to 8x)
  1  2  3      clip seed / bend / twist
  B  M  S      show / hide bind mesh, skinned mesh, skeleton
  W            weight view: next bone  G      skinning on cpu / gpu / both
  R            reset time, speed, camera, bent bones
  P            save a screenshot       H      this list      Esc  quit
mouse:
  left-drag    orbit                   wheel  zoom
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
    /// Joint positions of the current pose, for drawing the bones.
    pub joints: Vec<Vec3>,
    /// CPU time of the last pose + blend.
    pub last_cpu: Duration,
    colors_dirty: bool,
    bend: Option<BendDrag>,
}

impl Demo {
    /// The demo of `model` playing `clips`, set up as `options` ask.
    pub fn new(model: Model, clips: Vec<Clip>, options: &Options) -> Result<Demo, String> {
        let clip = clips.iter().position(|c| c.name == options.clip).ok_or_else(|| {
            let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
            format!("unknown clip {:?}: choose one of {}", options.clip, names.join(", "))
        })?;
        let weight_bone = match &options.weights {
            None => None,
            Some(name) => Some(find_bone(&model, name)?),
        };
        if options.skinning != Skinning::Cpu {
            fits_gpu(model.skin.joints().len())?;
        }
        let camera = framing_model(&model, &clips);
        let pose = Pose::new(&model);
        let joints = vec![Vec3::ZERO; model.skeleton.len()];
        let mut demo = Demo {
            model,
            clips,
            clip,
            clock: Clock::new(options.time),
            pose,
            view: View::new(camera, weight_bone),
            skinning: options.skinning,
            joints,
            last_cpu: Duration::ZERO,
            colors_dirty: true,
            bend: None,
        };
        demo.update();
        Ok(demo)
    }

    pub fn clip(&self) -> &Clip {
        &self.clips[self.clip]
    }

    /// Runs the method for the current time: clip, world transforms, palette, and the blend unless
    /// only the GPU skins.
    pub fn update(&mut self) {
        let started = Instant::now();
        let (model, clip, time) = (&self.model, &self.clips[self.clip], self.clock.time);
        match self.skinning {
            Skinning::Cpu | Skinning::Both => self.pose.update(model, clip, time),
            // The vertex shader blends; the CPU's part is the tree walk and the palette.
            Skinning::Gpu => self.pose.update_palette(model, clip, time),
        }
        self.last_cpu = started.elapsed();
        for (bone, joint) in self.joints.iter_mut().enumerate() {
            *joint = self.pose.joint(bone);
        }
    }

    /// What the renderer should draw for a viewport of this size.
    pub fn frame(&self, width: u32, height: u32, scale: f64) -> Frame<'_> {
        let view = &self.view;
        Frame {
            view_projection: view.camera.view_projection(width, height),
            point_size: colors::POINT_SIZE * scale as f32,
            bind: view.show_bind,
            skinned: (view.show_skinned && self.skinning != Skinning::Gpu).then_some(&self.pose.skinned[..]),
            gpu_palette: (view.show_skinned && self.skinning != Skinning::Cpu)
                .then_some(&self.pose.palette[..]),
            // Both: the GPU's result in its own colour, over the CPU's, so any disagreement shows.
            gpu_color: (self.skinning == Skinning::Both).then_some(colors::MAGENTA),
            bones: view.show_bones.then_some(&self.joints[..]),
        }
    }

    /// New colours for the skinned mesh and the bones, if the weight view changed since last asked.
    pub fn take_colors(&mut self) -> Option<Colors> {
        if !std::mem::take(&mut self.colors_dirty) {
            return None;
        }
        let skinned = match self.view.weight_bone {
            None => vec![colors::RED; self.model.skin.len()],
            Some(bone) => weight_of_bone(&self.model, bone).map(colors::weight_color).collect(),
        };
        let bones = (0..self.model.skeleton.len())
            .map(|b| if Some(b) == self.view.weight_bone { colors::HIGHLIGHT } else { colors::BLUE })
            .collect();
        Some(Colors { skinned, bones })
    }

    /// Handles a key, given as the character it types (" " for Space).
    pub fn key(&mut self, key: &str) -> Reply {
        let clock = &mut self.clock;
        match key.to_lowercase().as_str() {
            " " => clock.paused = !clock.paused,
            "." => clock.step(true),
            "," => clock.step(false),
            "]" => clock.scrub(true),
            "[" => clock.scrub(false),
            "+" | "=" => clock.faster(),
            "-" | "_" => clock.slower(),
            "1" | "2" | "3" => {
                let wanted = key.parse::<usize>().unwrap_or(1) - 1;
                self.clip = wanted.min(self.clips.len() - 1);
            }
            "b" => self.view.show_bind = !self.view.show_bind,
            "m" => self.view.show_skinned = !self.view.show_skinned,
            "s" => self.view.show_bones = !self.view.show_bones,
            "w" => {
                self.view.next_weight_bone(&self.model);
                self.colors_dirty = true;
            }
            "g" => {
                let next = self.skinning.next();
                if next != Skinning::Cpu
                    && let Err(why) = fits_gpu(self.model.skin.joints().len())
                {
                    return Reply::Refused(why);
                }
                self.skinning = next;
            }
            "r" => self.reset(),
            "p" => return Reply::Screenshot,
            "h" => return Reply::Help,
            _ => return Reply::Nothing,
        }
        self.update();
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
        self.bend = BendDrag::start(cursor, &self.joints, &self.view.camera, size, reach, &self.pose);
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
        self.bend = None;
    }

    /// The window title: what is playing and what it costs. The time is the clip's own (wrapped).
    pub fn title(&self, fps: f64) -> String {
        let cpu_work = if self.skinning == Skinning::Gpu { "pose" } else { "pose+blend" };
        format!(
            "skinning | clip {} | t {:.2} s | {}x{} | {} skinning | {:.0} fps | {cpu_work} {:.1} µs",
            self.clip().name,
            self.clip().wrap(self.clock.time),
            self.clock.speed,
            if self.clock.paused { " paused" } else { "" },
            self.skinning.name(),
            fps,
            self.last_cpu.as_secs_f64() * 1e6,
        )
    }
}

fn find_bone(model: &Model, name: &str) -> Result<BoneId, String> {
    let by_index = name.parse::<usize>().ok().filter(|&i| i < model.skeleton.len());
    by_index.or_else(|| model.skeleton.find(name)).ok_or_else(|| {
        let names: Vec<&str> = model.skeleton.bones().iter().map(|b| b.name.as_str()).collect();
        format!(
            "unknown bone {name:?} for --weights: choose one of {} (or 0 to {})",
            names.join(", "),
            names.len() - 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::clock::STEP;
    use super::*;

    fn demo() -> Demo {
        let model = skinning::scene::article().expect("the article's scene is valid");
        let clips = skinning::scene::clips().expect("the article's clips are valid");
        Demo::new(model, clips, &Options { clip: "seed".into(), ..Options::default() })
            .expect("defaults are valid")
    }

    #[test]
    fn keys_change_the_state() {
        let mut d = demo();
        assert_eq!(d.key(" "), Reply::Changed);
        assert!(d.clock.paused);
        d.key(".");
        assert!((d.clock.time - STEP).abs() < 1e-12);
        d.key("]");
        d.key("+");
        d.key("+");
        assert_eq!(d.clock.speed, 4.0);
        for _ in 0..10 {
            d.key("-");
        }
        assert_eq!(d.clock.speed, 0.125);
        d.key("3");
        assert_eq!(d.clip().name, "twist");
        d.key("w");
        d.key("w");
        assert_eq!(d.view.weight_bone, Some(1));
        d.key("r");
        assert_eq!((d.clock.time, d.clock.speed), (0.0, 1.0));
        assert_eq!(d.key("p"), Reply::Screenshot);
        assert_eq!(d.key("q"), Reply::Nothing);
    }

    #[test]
    fn g_cycles_the_skinning_and_the_frame_follows() {
        let mut d = demo();
        let drawn = |d: &Demo| {
            let f = d.frame(640, 480, 1.0);
            (f.skinned.is_some(), f.gpu_palette.is_some(), f.gpu_color)
        };
        assert_eq!((d.skinning, drawn(&d)), (Skinning::Cpu, (true, false, None)));
        d.key("g");
        assert_eq!((d.skinning, drawn(&d)), (Skinning::Gpu, (false, true, None)));
        assert!(d.title(60.0).contains("gpu skinning"), "{}", d.title(60.0));
        d.key("g");
        assert_eq!((d.skinning, drawn(&d)), (Skinning::Both, (true, true, Some(colors::MAGENTA))));
        d.key("g");
        assert_eq!(d.skinning, Skinning::Cpu);
    }

    /// A chain of `bones` bones with one vertex on the last: a model of any size.
    fn chain(bones: usize) -> Model {
        let mut b = skinning::skeleton::SkeletonBuilder::new();
        for i in 0..bones {
            b.bone(&format!("bone{i}"), Vec3::X);
            if i > 0 {
                b.set_first_child(i - 1, i);
            }
        }
        let skeleton = b.build().expect("a chain is a tree");
        let joints =
            (0..bones).map(|bone| skinning::skin::Joint { bone, offset: glam::Mat4::IDENTITY }).collect();
        let on_last = [skinning::skin::Influence { joint: bones - 1, weight: 1.0 }];
        let skin = skinning::skin::Skin::from_table(joints, &[(Vec3::ZERO, &on_last[..])]).expect("valid");
        Model::new(skeleton, skin, vec![]).expect("sizes match")
    }

    #[test]
    fn a_model_too_big_for_the_palette_stays_on_the_cpu() {
        use super::super::gpu_skin::MAX_GPU_BONES;
        assert!(fits_gpu(MAX_GPU_BONES).is_ok());
        let why = fits_gpu(MAX_GPU_BONES + 1).expect_err("one bone too many");
        assert!(why.contains(&(MAX_GPU_BONES + 1).to_string()) && !why.contains('\n'), "{why}");

        let mut d = demo();
        d.model = chain(MAX_GPU_BONES + 1);
        d.pose = Pose::new(&d.model);
        d.joints = vec![Vec3::ZERO; d.model.skeleton.len()];
        assert_eq!(d.key("g"), Reply::Refused(why));
        assert_eq!(d.skinning, Skinning::Cpu);
        // A model that fits switches as usual.
        d.model = chain(MAX_GPU_BONES);
        d.pose = Pose::new(&d.model);
        d.joints = vec![Vec3::ZERO; d.model.skeleton.len()];
        assert_eq!(d.key("g"), Reply::Changed);
        assert_eq!(d.skinning, Skinning::Gpu);
    }

    #[test]
    fn dragging_around_a_joint_bends_that_bone_and_reset_undoes_it() {
        let mut d = demo();
        let size = (640, 480);
        let bone2 = skinning::scene::BONE2;
        let joint = d.view.camera.project(d.joints[bone2], size.0, size.1);
        let tip_before = d.joints[skinning::scene::BONE31];
        assert!(d.start_bend(joint + Vec2::new(1.0, 0.0), size, 12.0));
        // Start right of the joint, end above it: a quarter turn counter-clockwise.
        d.drag_bend(joint + Vec2::new(40.0, 0.0));
        d.drag_bend(joint + Vec2::new(0.0, -40.0));
        d.end_bend();
        let tip = d.joints[skinning::scene::BONE31] - d.joints[bone2];
        let before = tip_before - d.joints[bone2];
        // bone31 sat at (+0.2, +0.1) from bone2; a quarter turn puts it at (-0.1, +0.2).
        assert!((tip - Vec3::new(-before.y, before.x, 0.0)).length() < 1e-4, "{tip}");
        d.key("r");
        assert!((d.joints[skinning::scene::BONE31] - tip_before).length() < 1e-6);
    }
}
