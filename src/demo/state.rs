//! What the demo shows and how the keys and the mouse change it. No windows and no OpenGL here, so
//! the window and the headless run share it, and its logic is tested like the rest.

use super::cli::{Options, Skinning};
use super::gpu_skin::fits_gpu;
use super::render::{self, Frame};
use glam::{Quat, Vec2, Vec3};
use skinning::camera::{Camera, framing_model};
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

/// A step of `.` and `,`.
pub const STEP: f64 = 1.0 / 60.0;
/// A step of `[` and `]`.
pub const SCRUB: f64 = 0.1;

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

/// A right-drag that bends a bone about the view axis.
#[derive(Clone, Copy, Debug)]
struct BendDrag {
    bone: BoneId,
    /// The joint on screen, and the cursor's angle around it when the drag started.
    pivot: Vec2,
    start_angle: f32,
    /// The bone's hand bend, and its rotation in the world, when the drag started.
    start_bend: Quat,
    start_world: Quat,
    /// The view axis, pointing at the viewer.
    axis: Vec3,
}

pub struct Demo {
    pub model: Model,
    pub clips: Vec<Clip>,
    pub clip: usize,
    /// Animation time in seconds, as f64 so hours of running lose no precision.
    pub time: f64,
    pub start_time: f64,
    pub speed: f64,
    pub paused: bool,
    pub pose: Pose,
    pub camera: Camera,
    home: Camera,
    pub show_bind: bool,
    pub show_skinned: bool,
    pub show_bones: bool,
    /// The bone whose weights colour the skinned mesh, if the weight view is on.
    pub weight_bone: Option<BoneId>,
    pub skinning: Skinning,
    /// Joint positions of the current pose, for drawing the bones.
    pub joints: Vec<Vec3>,
    /// CPU time of the last pose + blend.
    pub last_cpu: Duration,
    colors_dirty: bool,
    bend_drag: Option<BendDrag>,
}

impl Demo {
    pub fn new(options: &Options) -> Result<Demo, String> {
        let model = skinning::scene::article();
        let clips = skinning::scene::clips();
        let clip = clips.iter().position(|c| c.name == options.clip).ok_or_else(|| {
            let names: Vec<&str> = clips.iter().map(|c| c.name).collect();
            format!("unknown clip {:?}: choose one of {}", options.clip, names.join(", "))
        })?;
        let weight_bone = match &options.weights {
            None => None,
            Some(name) => Some(find_bone(&model, name)?),
        };
        if options.skinning != Skinning::Cpu {
            fits_gpu(model.skeleton.len())?;
        }
        let camera = framing_model(&model, &clips);
        let pose = Pose::new(&model);
        let joints = vec![Vec3::ZERO; model.skeleton.len()];
        let mut demo = Demo {
            model,
            clips,
            clip,
            time: options.time,
            start_time: options.time,
            speed: 1.0,
            paused: false,
            pose,
            camera,
            home: camera,
            show_bind: true,
            show_skinned: true,
            show_bones: true,
            weight_bone,
            skinning: options.skinning,
            joints,
            last_cpu: Duration::ZERO,
            colors_dirty: true,
            bend_drag: None,
        };
        demo.update();
        Ok(demo)
    }

    pub fn clip(&self) -> &Clip {
        &self.clips[self.clip]
    }

    /// Moves the animation on by `dt` seconds of real time (nothing while paused).
    pub fn advance(&mut self, dt: f64) {
        if !self.paused {
            self.time += dt * self.speed;
        }
    }

    /// Runs the method for the current time: clip, world transforms, palette, and the blend unless
    /// only the GPU skins.
    pub fn update(&mut self) {
        let started = Instant::now();
        let (model, clip) = (&self.model, &self.clips[self.clip]);
        match self.skinning {
            Skinning::Cpu | Skinning::Both => self.pose.update(model, clip, self.time),
            // The vertex shader blends; the CPU's part is the tree walk and the palette.
            Skinning::Gpu => self.pose.update_palette(model, clip, self.time),
        }
        self.last_cpu = started.elapsed();
        for (bone, joint) in self.joints.iter_mut().enumerate() {
            *joint = self.pose.joint(bone);
        }
    }

    /// What the renderer should draw for a viewport of this size.
    pub fn frame(&self, width: u32, height: u32, scale: f64) -> Frame<'_> {
        Frame {
            view_projection: self.camera.view_projection(width, height),
            point_size: render::POINT_SIZE * scale as f32,
            bind: self.show_bind,
            skinned: (self.show_skinned && self.skinning != Skinning::Gpu).then_some(&self.pose.skinned[..]),
            gpu_palette: (self.show_skinned && self.skinning != Skinning::Cpu)
                .then_some(&self.pose.palette[..]),
            // Both: the GPU's result in its own colour, over the CPU's, so any disagreement shows.
            gpu_color: (self.skinning == Skinning::Both).then_some(render::MAGENTA),
            bones: self.show_bones.then_some(&self.joints[..]),
        }
    }

    /// New colours for the skinned mesh and the bones, if the weight view changed since last asked.
    pub fn take_colors(&mut self) -> Option<render::Colors> {
        if !std::mem::take(&mut self.colors_dirty) {
            return None;
        }
        let skinned = self
            .model
            .skin
            .vertices()
            .iter()
            .map(|v| match self.weight_bone {
                None => render::RED,
                Some(bone) => {
                    render::weight_color(v.influences().filter(|i| i.bone == bone).map(|i| i.weight).sum())
                }
            })
            .collect();
        let bones = (0..self.model.skeleton.len())
            .map(|b| if Some(b) == self.weight_bone { render::HIGHLIGHT } else { render::BLUE })
            .collect();
        Some(render::Colors { skinned, bones })
    }

    /// Handles a key, given as the character it types (" " for Space).
    pub fn key(&mut self, key: &str) -> Reply {
        match key.to_lowercase().as_str() {
            " " => self.paused = !self.paused,
            "." if self.paused => self.time += STEP,
            "," if self.paused => self.time -= STEP,
            "]" => self.time += SCRUB,
            "[" => self.time -= SCRUB,
            "+" | "=" => self.speed = (self.speed * 2.0).min(8.0),
            "-" | "_" => self.speed = (self.speed / 2.0).max(0.125),
            "1" | "2" | "3" => {
                let wanted = key.parse::<usize>().unwrap_or(1) - 1;
                self.clip = wanted.min(self.clips.len() - 1);
            }
            "b" => self.show_bind = !self.show_bind,
            "m" => self.show_skinned = !self.show_skinned,
            "s" => self.show_bones = !self.show_bones,
            "w" => {
                // Off, then every bone in turn, then off again.
                self.weight_bone = match self.weight_bone {
                    None => Some(0),
                    Some(b) if b + 1 < self.model.skeleton.len() => Some(b + 1),
                    Some(_) => None,
                };
                self.colors_dirty = true;
            }
            "g" => {
                let next = self.skinning.next();
                if next != Skinning::Cpu
                    && let Err(why) = fits_gpu(self.model.skeleton.len())
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
        self.time = self.start_time;
        self.speed = 1.0;
        self.camera = self.home;
        self.bend_drag = None;
        self.pose.bend.fill(Quat::IDENTITY);
    }

    /// Left-drag: turn the camera by the cursor's movement in pixels.
    pub fn orbit(&mut self, delta: Vec2) {
        self.camera.orbit(-delta.x * 0.01, delta.y * 0.01);
    }

    /// Mouse wheel: `lines` notches, positive to come closer.
    pub fn zoom(&mut self, lines: f32) {
        self.camera.zoom_by(1.1f32.powf(lines));
    }

    /// Right button pressed at `cursor`: start bending the bone whose joint is nearest, if one is
    /// within `reach` pixels. Returns whether a bone was caught.
    pub fn start_bend(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) -> bool {
        let (w, h) = size;
        let nearest = (0..self.joints.len())
            .map(|b| (b, self.camera.project(self.joints[b], w, h)))
            .map(|(b, p)| (b, p, p.distance(cursor)))
            .filter(|&(_, _, d)| d <= reach)
            .min_by(|a, b| a.2.total_cmp(&b.2));
        let Some((bone, pivot, _)) = nearest else { return false };
        let (_, world_rotation, _) = self.pose.world[bone].to_scale_rotation_translation();
        self.bend_drag = Some(BendDrag {
            bone,
            pivot,
            start_angle: screen_angle(cursor - pivot),
            start_bend: self.pose.bend[bone],
            start_world: world_rotation,
            axis: -self.camera.forward(),
        });
        true
    }

    /// The cursor moved during a right-drag: turn the bone by the angle the cursor swept around its
    /// joint. The turn is about the view axis in the world, stored in the bone's own space, so it
    /// rides along with whatever the clip does to the bone.
    pub fn drag_bend(&mut self, cursor: Vec2) {
        let Some(drag) = self.bend_drag else { return };
        let offset = cursor - drag.pivot;
        if offset.length() < 2.0 {
            return; // Too close to the joint for a meaningful angle.
        }
        let angle = screen_angle(offset) - drag.start_angle;
        // A world rotation R applied after the bone's world rotation W equals W * (W⁻¹ R W).
        let axis_in_bone = drag.start_world.inverse() * drag.axis;
        self.pose.bend[drag.bone] = drag.start_bend * Quat::from_axis_angle(axis_in_bone, angle);
        self.update();
    }

    pub fn end_bend(&mut self) {
        self.bend_drag = None;
    }

    /// The window title: what is playing and what it costs.
    pub fn title(&self, fps: f64) -> String {
        let cpu_work = if self.skinning == Skinning::Gpu { "pose" } else { "pose+blend" };
        format!(
            "skinning | clip {} | t {:.2} s | {}x{} | {} skinning | {:.0} fps | {cpu_work} {:.1} µs",
            self.clip().name,
            self.clip().wrap(self.time),
            self.speed,
            if self.paused { " paused" } else { "" },
            self.skinning.name(),
            fps,
            self.last_cpu.as_secs_f64() * 1e6,
        )
    }
}

/// The angle of a screen-space offset, counter-clockwise as seen by the viewer (screen y points down).
fn screen_angle(offset: Vec2) -> f32 {
    (-offset.y).atan2(offset.x)
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
    use super::*;

    fn demo() -> Demo {
        Demo::new(&Options { clip: "seed".into(), ..Options::default() }).expect("defaults are valid")
    }

    #[test]
    fn keys_change_the_state() {
        let mut d = demo();
        assert_eq!(d.key(" "), Reply::Changed);
        assert!(d.paused);
        d.key(".");
        assert!((d.time - STEP).abs() < 1e-12);
        d.key("]");
        d.key("+");
        d.key("+");
        assert_eq!(d.speed, 4.0);
        for _ in 0..10 {
            d.key("-");
        }
        assert_eq!(d.speed, 0.125);
        d.key("3");
        assert_eq!(d.clip().name, "twist");
        d.key("w");
        d.key("w");
        assert_eq!(d.weight_bone, Some(1));
        d.key("r");
        assert_eq!((d.time, d.speed), (0.0, 1.0));
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
        assert_eq!((d.skinning, drawn(&d)), (Skinning::Both, (true, true, Some(render::MAGENTA))));
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
        let on_last = [skinning::skin::Influence { bone: bones - 1, weight: 1.0 }];
        let skin = skinning::skin::Skin::from_table(bones, &[(Vec3::ZERO, &on_last[..])]).expect("valid");
        Model::new(skeleton, skin).expect("sizes match")
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
        let joint = d.camera.project(d.joints[bone2], size.0, size.1);
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
