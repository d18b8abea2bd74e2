//! One frame, one way to end it (`frame.rs`): `Pose::run` hands steps 5 and 6 to one `Skinner`,
//! which may fail; compare mode's second blend is the skinner's (`lbs_or_dqs.rs`: `ByMethod`); a
//! palette of dual quaternions is read only from the skinner that made it, in the frame it made it.

use glam::{Quat, Vec3A};
use skinning_method::frame::{Blending, Frame, Pose, Posed, Skinner, Still};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Palette, Reference, not_rigid};
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE2};
use skinning_method::skin::Skin;
use std::error::Error;

fn twisted() -> (Model, Pose) {
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    pose.bend[BONE2] = Quat::from_rotation_x(2.6);
    (model, pose)
}

fn held(blending: Blending) -> Frame {
    Frame { blending, ..Frame::new(&Still, 0.0) }
}

#[test]
fn a_dual_quaternion_palette_is_read_only_in_the_frame_that_made_it() {
    let (model, mut pose) = twisted();
    let mut by = ByMethod::new(Method::Dqs, Reference);
    pose.run(&model, held(by.ending())).expect("rigid");
    assert!(by.dq().is_some());
    assert!(matches!(by.palette(Method::Dqs, &pose.palette), Some(Palette::Dqs { .. })));
    // The next frame blends linearly: the dual quaternions are the last frame's, and never read.
    pose.bend[BONE2] = Quat::from_rotation_x(1.0);
    by.method = Method::Lbs;
    pose.run(&model, held(by.ending())).expect("LBS takes any palette");
    assert!(by.dq().is_none() && by.palette(Method::Dqs, &pose.palette).is_none());
    assert!(
        matches!(by.palette(Method::Lbs, &pose.palette), Some(Palette::Lbs(p)) if p == &pose.palette[..])
    );
    // A frame refused for its dual quaternions leaves none to read either, and says which joint.
    pose.local[scene::BONE31].scale.y = 2.0;
    by.method = Method::Dqs;
    let refused = pose.run(&model, held(by.ending())).expect_err("bone31 is stretched");
    assert_eq!(not_rigid(&refused).map(|e| e.joint), Some(3));
    assert!(by.dq().is_none());
}

/// A skinner that fails, as a GPU read-back may, after noting the palettes it was handed.
struct Failing {
    handed: Vec<usize>,
}

impl Skinner for Failing {
    fn skin(
        &mut self,
        _: &Skin,
        posed: Posed,
        _: &mut [Vec3A],
        _: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.handed.push(posed.palette.len());
        Err("the read-back stopped".into())
    }
}

#[test]
fn a_skinner_that_fails_fails_the_frame_and_says_why() {
    let (model, mut pose) = twisted();
    let (rest_palette, rest_skinned) = (pose.palette.clone(), pose.skinned.clone());
    let mut failing = Failing { handed: Vec::new() };
    let blending = Blending::Skin { by: &mut failing, normals: true };
    let refused = pose.run(&model, held(blending)).expect_err("the skinner failed");
    assert!(not_rigid(&refused).is_none());
    assert_eq!(refused.to_string(), "the read-back stopped");
    // Steps 1 to 4 ran: the bones and the palette are this frame's; the skinner wrote nothing.
    assert_ne!(pose.palette, rest_palette);
    assert_eq!(pose.skinned, rest_skinned);
    // It was handed the frame's matrices, one per joint, once.
    assert_eq!(failing.handed, [model.skin.joints().len()]);
}

#[test]
fn compare_mode_is_the_skinners_second_blend_by_dual_quaternions() {
    let (model, pose) = twisted();
    let (mut lbs, mut dqs, mut compared) = (pose.clone(), pose.clone(), pose.clone());
    lbs.run(&model, held(ByMethod::new(Method::Lbs, Reference).ending())).expect("LBS");
    dqs.run(&model, held(ByMethod::new(Method::Dqs, Reference).ending())).expect("rigid");
    assert_ne!(lbs.skinned, dqs.skinned, "a twist of 150 degrees: the two methods differ");
    let mut by = ByMethod::new(Method::Lbs, Reference);
    by.compare = true;
    compared.run(&model, held(by.ending())).expect("rigid");
    // The frame's own blend by its method, then the dual quaternions' positions: both bit for bit.
    assert_eq!(compared.skinned, lbs.skinned);
    assert_eq!(by.compared(), Some(&dqs.skinned[..]));
    // And the palette the second blend read is this frame's, for the GPU's compare layer.
    assert!(by.dq().is_some());
    // Out of compare mode, the skinner has no second positions to give.
    by.compare = false;
    compared.run(&model, held(by.ending())).expect("LBS");
    assert!(by.compared().is_none() && by.dq().is_none());
}
