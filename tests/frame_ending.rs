//! One frame, one way to end it (`frame.rs`): `Pose::run` hands steps 5 and 6 to one `Skinner`,
//! which may fail; compare mode's second blend is the frame's; a palette of dual quaternions is
//! read only in the frame that made it.

use glam::{Quat, Vec3A};
use skinning_method::frame::{Blending, Frame, Method, Palette, Pose, Posed, Refused, Skinner, Still};
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE2};
use skinning_method::skin::Skin;
use std::cell::RefCell;
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
    pose.run(&model, held(Blending::reference(Method::Dqs))).expect("rigid");
    assert!(pose.dq().is_some() && matches!(pose.palette_of(Method::Dqs), Some(Palette::Dqs { .. })));
    // The next frame blends linearly: the dual quaternions are the last frame's, and never read.
    pose.bend[BONE2] = Quat::from_rotation_x(1.0);
    pose.run(&model, held(Blending::reference(Method::Lbs))).expect("LBS takes any palette");
    assert!(pose.dq().is_none() && pose.palette_of(Method::Dqs).is_none());
    assert!(matches!(pose.palette_of(Method::Lbs), Some(Palette::Lbs(p)) if p == &pose.palette[..]));
}

/// A skinner that fails, as a GPU read-back may, after noting which palettes it was handed.
struct Failing {
    handed: RefCell<Vec<Method>>,
}

impl Skinner for Failing {
    fn skin(
        &self,
        _: &Skin,
        posed: Posed,
        _: &mut [Vec3A],
        _: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        let method = if matches!(posed.palette, Palette::Dqs { .. }) { Method::Dqs } else { Method::Lbs };
        self.handed.borrow_mut().push(method);
        Err("the read-back stopped".into())
    }
}

#[test]
fn a_skinner_that_fails_fails_the_frame_and_says_why() {
    let (model, mut pose) = twisted();
    let (rest_palette, rest_skinned) = (pose.palette.clone(), pose.skinned.clone());
    let failing = Failing { handed: RefCell::new(Vec::new()) };
    let blending = Blending::Skin { method: Method::Lbs, by: &failing, normals: true };
    let refused = pose.run(&model, held(blending)).expect_err("the skinner failed");
    assert!(matches!(refused, Refused::Skinner(_)) && refused.not_rigid().is_none());
    assert_eq!(refused.to_string(), "the read-back stopped");
    // Steps 1 to 4 ran: the bones and the palette are this frame's; the skinner wrote nothing.
    assert_ne!(pose.palette, rest_palette);
    assert_eq!(pose.skinned, rest_skinned);
    assert_eq!(*failing.handed.borrow(), [Method::Lbs]);
}

#[test]
fn compare_mode_is_the_frames_second_blend_by_dual_quaternions() {
    let (model, pose) = twisted();
    let (mut lbs, mut dqs, mut compared) = (pose.clone(), pose.clone(), pose.clone());
    lbs.run(&model, held(Blending::reference(Method::Lbs))).expect("LBS");
    dqs.run(&model, held(Blending::reference(Method::Dqs))).expect("rigid");
    assert_ne!(lbs.skinned, dqs.skinned, "a twist of 150 degrees: the two methods differ");
    let mut second = vec![Vec3A::ZERO; model.skin.len()];
    let frame = Frame { compare: Some(&mut second), ..held(Blending::reference(Method::Lbs)) };
    compared.run(&model, frame).expect("rigid");
    // The frame's own blend by its method, then the dual quaternions' positions: both bit for bit.
    assert_eq!(compared.skinned, lbs.skinned);
    assert_eq!(second, dqs.skinned);
    // And the palette the second blend read is this frame's, for the GPU's compare layer.
    assert!(compared.dq().is_some());
}
