//! `--crowd N`: the model N times over (`skinning_fast::crowd`, chapter 14's "A crowd").
//!
//! The demo's own character is the first: it stands where it always does, with everything the flags
//! and the keys do to it (the clips' layers, reaching, the morph weights held, the inspector). The
//! N - 1 others stand beside it on a grid, each playing the clip that plays, linearly blended, at a
//! phase of its own, and each a job on the skinned layer's threads. They go as far as the skinned
//! layer needs: the blend (with the normals, for a lit surface) where the CPU draws, the palette
//! alone where only the GPU does. They share the model; each owns its pose, and `--stats` says
//! what that costs ([`CrowdLayer::describe`]).

use crate::demo::show::skinned::Cpu;
use glam::Vec3;
use skinning::camera::Camera;
use skinning_fast::crowd::{
    Character, Crowd, Work, grid, morph_bytes, on_ground, phase, pose_bytes, spacing,
};
use skinning_fast::parallel::BlendThreads;
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::morph::{MorphTargets, Morphed};

/// The most memory the crowd's poses may hold together: past it, `--crowd` asks for fewer.
pub const MAX_BYTES: usize = 1 << 30;

/// How many degrees above the ground a crowd is first seen from, where `--camera` does not say:
/// enough to see every row, low enough to see the characters' sides.
pub const FROM_ABOVE: f32 = 35.0;

/// The characters past the first, and the box the whole grid fills.
pub struct CrowdLayer {
    crowd: Crowd,
    /// What one character's pose holds, in bytes.
    each: usize,
    /// The middle of the grid, from the first character.
    centre: Vec3,
    /// Half the grid's size on each axis.
    half_span: Vec3,
}

impl CrowdLayer {
    /// `count` characters of `model` (shaped by its morph `targets`) playing a clip of `duration`
    /// seconds; None for one (no crowd). A crowd whose poses would hold more than [`MAX_BYTES`] is
    /// refused in one line.
    pub fn new(
        model: &Model,
        targets: &MorphTargets,
        count: usize,
        duration: f64,
    ) -> Result<Option<CrowdLayer>, String> {
        if count <= 1 {
            return Ok(None);
        }
        let each = pose_bytes(&Pose::new(model)) + morph_bytes(&Morphed::new(&model.skin, targets));
        if each.saturating_mul(count) > MAX_BYTES {
            return Err(format!(
                "--crowd {count}: {count} characters of this model would hold {} MiB of poses ({} KiB each); \
                 at most {} MiB: ask for {} or fewer",
                each.saturating_mul(count) >> 20,
                each >> 10,
                MAX_BYTES >> 20,
                MAX_BYTES / each.max(1)
            ));
        }
        let step = spacing(model);
        let place = |i| on_ground(model, grid(i, count), step);
        // The first character stays where the model stands; the grid moves to put it there.
        let first = place(0);
        let crowd = Crowd::new(model, (1..count).map(|i| (place(i) - first, phase(i, count, duration))))
            .morphing(model, targets);
        // The grid's middle, from the first character, and how far from it the farthest stands.
        let centre = -first;
        let places = crowd.characters.iter().map(|c| c.place).chain([Vec3::ZERO]);
        let half_span = places.map(|p| (p - centre).abs()).fold(Vec3::ZERO, Vec3::max);
        Ok(Some(CrowdLayer { crowd, each, centre, half_span }))
    }

    /// One frame of the others: `clip` at `time` plus each one's phase, as far as the skinned
    /// layer's `work` this frame goes, on its `threads`.
    pub fn run(&mut self, model: &Model, clip: &Clip, time: f64, work: Cpu, threads: &BlendThreads) {
        let work = match work {
            Cpu { positions: false, .. } => Work::Palette,
            Cpu { normals: false, .. } => Work::Blend,
            _ => Work::BlendAndNormals,
        };
        self.crowd.run(model, clip, time, work, threads);
    }

    /// The characters past the first, for the renderer.
    pub fn others(&self) -> &[Character] {
        &self.crowd.characters
    }

    /// Where the camera starts (yaw, pitch, zoom) when `--camera` does not say: [`FROM_ABOVE`] for
    /// a grid of more than one row (three characters or more), whose first row, seen from the
    /// front at eye level, would hide the rest; None, the model's own view, for one row.
    pub fn first_view(&self) -> Option<(f32, f32, f32)> {
        (self.crowd.characters.len() + 1 >= 3).then_some((0.0, FROM_ABOVE, 1.0))
    }

    /// `camera`, which frames the first character, widened to frame the whole grid.
    pub fn frame(&self, camera: &mut Camera) {
        camera.target += self.centre;
        camera.extent += self.half_span;
    }

    /// What the crowd costs in memory, for `--stats`: what each character owns, and what all share.
    pub fn describe(&self) -> String {
        format!(
            "crowd: {} characters, one job each; each past the first owns its pose, {:.1} KiB (the {} \
             others {:.1} MiB); the model (skeleton, skin, clips) is shared, not copied",
            self.crowd.characters.len() + 1,
            self.each as f64 / 1024.0,
            self.crowd.characters.len(),
            self.crowd.bytes() as f64 / (1024.0 * 1024.0)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinning_fast::synthetic;

    #[test]
    fn a_crowd_past_the_memory_limit_is_refused_saying_how_many_fit() {
        // 8,192 vertices: a pose of over 256 KB (positions and normals), so 10,000 hold 2.5 GB.
        let tube = synthetic::tube(8, 512, 16);
        let Err(why) = CrowdLayer::new(&tube, &MorphTargets::default(), 10_000, 1.0) else {
            panic!("10,000 big poses were taken")
        };
        let fit = MAX_BYTES / pose_bytes(&Pose::new(&tube));
        assert!(
            why.starts_with("--crowd 10000: ") && why.contains(&format!("ask for {fit} or fewer")),
            "{why}"
        );
        assert!(fit < 10_000 && fit > 1000, "{fit}");
        assert!(
            CrowdLayer::new(&tube, &MorphTargets::default(), 3, 1.0)
                .is_ok_and(|c| c.is_some_and(|c| c.others().len() == 2))
        );
        assert!(
            CrowdLayer::new(&tube, &MorphTargets::default(), 1, 1.0).is_ok_and(|c| c.is_none()),
            "one is the model alone"
        );
    }

    #[test]
    fn the_first_character_stays_and_the_camera_takes_in_the_grid() {
        let tube = synthetic::tube(4, 8, 8);
        let crowd =
            CrowdLayer::new(&tube, &MorphTargets::default(), 9, 2.0).expect("nine fit").expect("a crowd");
        assert_eq!(crowd.others().len(), 8);
        assert!(crowd.others().iter().all(|c| c.place.length() > 0.0), "no other where the first stands");
        let mut camera = skinning::camera::framing_model(&tube, &[synthetic::wave()]);
        let before = camera.extent;
        crowd.frame(&mut camera);
        // Three by three: the middle one is two steps from the corner the first stands on.
        assert!(camera.extent.x >= before.x + spacing(&tube) - 1e-4, "{before} {}", camera.extent);
    }
}
