//! The article's scene: five bones, a 13-vertex mesh, its skin, and the clips that move it.
//!
//! This is the demo of article 000 (`buildBones`, `buildMesh`, `animateBones`), number for number.
//! The "arm" lies along +x in the z = 0 plane: root at the origin, bone1 and bone2 in a row, and two
//! "claws", bone31 above and bone32 below, at the end. The mesh is a thin outline around it, drawn
//! as one closed loop. Its normals lie in the plane, perpendicular to the outline, pointing out,
//! halfway between the two edges that meet at a vertex; they are worked out once from the bind
//! mesh ([`outline_normals`]) and become the skin's bind normals, so the toy's normals follow the
//! bones by the same rule as a real character's (chapter 8).
//!
//! ```text
//!                        bone31 (0.6, 0.1)
//!   root ── bone1 ── bone2 <
//!  (0,0)   (0.2,0)  (0.4,0)  bone32 (0.6, -0.1)
//! ```

use crate::clip::{Channel, Clip, Motion, Track};
use crate::model::{Model, ModelError};
use crate::skeleton::{BoneId, SkeletonBuilder, compute_offsets};
use crate::skin::{Influence, Joint, Skin};
use crate::transform::Trs;
use glam::{Quat, Vec3, vec3};
use std::f32::consts::TAU;
use std::fmt;

/// The bones, in the order they are stored (the order `buildBones` creates them).
pub const ROOT: BoneId = 0;
pub const BONE1: BoneId = 1;
pub const BONE2: BoneId = 2;
pub const BONE31: BoneId = 3;
pub const BONE32: BoneId = 4;

/// Each bone's joint in its parent's space, in the bind pose.
const BIND_POSITIONS: [Vec3; 5] = [
    vec3(0.0, 0.0, 0.0),  // root: the mesh's origin
    vec3(0.2, 0.0, 0.0),  // bone1: 0.2 along the arm from root
    vec3(0.2, 0.0, 0.0),  // bone2: another 0.2 along, so at x = 0.4 in the world
    vec3(0.2, 0.1, 0.0),  // bone31: upper claw, at (0.6, 0.1) in the world
    vec3(0.2, -0.1, 0.0), // bone32: lower claw, at (0.6, -0.1) in the world
];

/// The article's scene, ready to animate.
///
/// An error, not a crash, if an edit to the numbers in this file breaks the tree or the skin: the tutorial
/// invites you to change them, and the program then says which vertex or bone is wrong.
pub fn article() -> Result<Model, ModelError> {
    article_with_mesh(&MESH)
}

/// The article's bones with `mesh` (bind position and influences per vertex) as their skinned mesh,
/// drawn as one closed loop: [`article`] with an edited copy of [`MESH`], to try the edit out.
pub fn article_with_mesh(mesh: &[(Vec3, &[Influence])]) -> Result<Model, ModelError> {
    // The tree, built as in `buildBones`.
    let mut b = SkeletonBuilder::new();
    for (name, position) in NAMES.iter().zip(BIND_POSITIONS) {
        b.bone(name, position);
    }
    b.set_first_child(ROOT, BONE1);
    b.set_first_child(BONE1, BONE2);
    b.set_first_child(BONE2, BONE31);
    b.set_sibling(BONE31, BONE32); // bone32 is bone2's second child
    let skeleton = b.build()?;

    // `ComputeBoneOffset`: the rest pose is the pose the mesh was modelled in, so each bone's offset
    // undoes its rest world transform. Every bone is a joint of the skin: joint i is bone i.
    let offsets = compute_offsets(&skeleton.rest_world());
    let joints = offsets.into_iter().enumerate().map(|(bone, offset)| Joint { bone, offset }).collect();

    let bind: Vec<Vec3> = mesh.iter().map(|(position, _)| *position).collect();
    let mut skin = Skin::from_table(joints, mesh)?;
    skin.set_normals(&outline_normals(&bind))?;
    // Drawn as the article draws it: one closed line loop through the vertices.
    Model::new(skeleton, skin, Model::line_loop(mesh.len()))
}

/// The in-plane normals of a closed outline in the z = 0 plane, one per point, the outline going
/// from each point to the next and from the last back to the first.
///
/// An edge from p to q, walked with the inside on its right (clockwise), has its outside on the
/// left: `(-(q - p).y, (q - p).x)` turned a quarter to the left. The outline's signed area says
/// which way it is walked (shoelace formula: negative for clockwise); for a counter-clockwise one
/// the outside is on the right. Each point's normal is the sum of its two edges' unit normals,
/// normalised: perpendicular to the outline where it is straight, halfway round at a corner.
pub fn outline_normals(points: &[Vec3]) -> Vec<Vec3> {
    let n = points.len();
    let edge = |i: usize| points[(i + 1) % n] - points[i];
    let twice_area: f32 =
        (0..n).map(|i| points[i].x * points[(i + 1) % n].y - points[(i + 1) % n].x * points[i].y).sum();
    let outside = if twice_area < 0.0 { 1.0 } else { -1.0 };
    let normal_of_edge = |i: usize| {
        let e = edge(i).normalize_or_zero();
        outside * Vec3::new(-e.y, e.x, 0.0)
    };
    (0..n)
        .map(|i| (normal_of_edge((i + n - 1) % n) + normal_of_edge(i)).normalize_or(normal_of_edge(i)))
        .collect()
}

/// One influence of the mesh below: a joint (here the same number as its bone) and its weight.
const fn w(joint: usize, weight: f32) -> Influence {
    Influence { joint, weight }
}

/// The mesh and its skin info, as in `buildMesh`. Vertices go round the outline: along the top from
/// left to right, around the claws, back along the bottom.
pub const MESH: [(Vec3, &[Influence]); 13] = [
    (vec3(-0.1, 0.05, 0.0), &[w(ROOT, 1.0)]), // 0: left end, top: root only
    (vec3(0.1, 0.05, 0.0), &[w(ROOT, 0.5), w(BONE1, 0.5)]), // 1: over the root-bone1 joint
    (vec3(0.3, 0.05, 0.0), &[w(BONE1, 0.5), w(BONE2, 0.5)]), // 2: over the bone1-bone2 joint
    (vec3(0.45, 0.06, 0.0), &[w(BONE2, 0.3), w(BONE31, 0.7)]), // 3: base of the upper claw
    (vec3(0.6, 0.15, 0.0), &[w(BONE2, 0.2), w(BONE31, 0.8)]), // 4: top of the upper claw
    (vec3(0.65, 0.1, 0.0), &[w(BONE31, 1.0)]), // 5: tip of the upper claw
    (vec3(0.5, 0.0, 0.0), &[w(BONE31, 0.5), w(BONE32, 0.5)]), // 6: between the claws
    (vec3(0.65, -0.1, 0.0), &[w(BONE32, 1.0)]), // 7: tip of the lower claw
    (vec3(0.6, -0.15, 0.0), &[w(BONE2, 0.2), w(BONE32, 0.8)]), // 8: bottom of the lower claw
    (vec3(0.45, -0.06, 0.0), &[w(BONE2, 0.3), w(BONE32, 0.7)]), // 9: base of the lower claw
    (vec3(0.3, -0.05, 0.0), &[w(BONE1, 0.5), w(BONE2, 0.5)]), // 10: under the bone1-bone2 joint
    (vec3(0.1, -0.05, 0.0), &[w(ROOT, 0.5), w(BONE1, 0.5)]), // 11: under the root-bone1 joint
    (vec3(-0.1, -0.05, 0.0), &[w(ROOT, 1.0)]), // 12: left end, bottom: root only
];

/// The bones' names, in the order they are stored.
pub const NAMES: [&str; 5] = ["root", "bone1", "bone2", "bone31", "bone32"];

/// The clips that ship with the scene, in the order the keys `1` `2` `3` pick them.
pub fn clips() -> Result<Vec<Clip>, SceneError> {
    Ok(vec![seed(), bend()?, twist()?])
}

/// The article's own motion (`animateBones`), driven by time instead of by frame count.
///
/// bone1 slides up and down between y = -0.2 and 0.2; bone32 slides along x between 0 and 0.2. In the
/// article both move by the same step each frame, so bone32, with half the distance to cover, turns
/// round twice as often. Both start at their bind values and move down first, as in the article.
pub fn seed() -> Clip {
    Clip { name: "seed".into(), duration: SEED_PERIOD, motion: Motion::Procedural(seed_motion) }
}

/// Seconds for bone1 to go down, up and back to its bind position.
pub const SEED_PERIOD: f32 = 4.0;

fn seed_motion(t: f32, bone: BoneId, local: &mut Trs) {
    match bone {
        BONE1 => {
            let y = -0.2 * (TAU * t / SEED_PERIOD).sin();
            local.translation = vec3(0.2, y, 0.0);
        }
        BONE32 => {
            let x = 0.1 + 0.1 * (TAU * t / (SEED_PERIOD / 2.0)).cos();
            local.translation = vec3(x, -0.1, 0.0);
        }
        _ => {}
    }
}

/// The arm curls up and straightens again while the claws open and close twice. Rotations only, about
/// the z axis (out of the screen), so every bone keeps its length.
pub fn bend() -> Result<Clip, SceneError> {
    let z = Vec3::Z;
    Ok(Clip {
        name: "bend".into(),
        duration: 4.0,
        motion: Motion::Keyframes(vec![
            rotation_track(BONE1, z, &[(0.0, 0.0), (2.0, 30.0), (4.0, 0.0)])?,
            rotation_track(BONE2, z, &[(0.0, 0.0), (2.0, 40.0), (4.0, 0.0)])?,
            // The claws swing apart (open) and back past their bind angle (closed).
            rotation_track(BONE31, z, &[(0.0, -5.0), (1.0, 25.0), (2.0, -5.0), (3.0, 25.0), (4.0, -5.0)])?,
            rotation_track(BONE32, z, &[(0.0, 5.0), (1.0, -25.0), (2.0, 5.0), (3.0, -25.0), (4.0, 5.0)])?,
        ]),
    })
}

/// bone2 twists about its own length (the x axis) to 150 degrees and back. Linear blend skinning
/// cannot twist: vertices half on bone1 and half on bone2 average an unturned and a turned position,
/// and the average cuts through the middle, so the mesh pinches (the "candy wrapper").
pub fn twist() -> Result<Clip, SceneError> {
    Ok(Clip {
        name: "twist".into(),
        duration: 4.0,
        motion: Motion::Keyframes(vec![rotation_track(
            BONE2,
            Vec3::X,
            &[(0.0, 0.0), (1.5, 150.0), (2.5, 150.0), (4.0, 0.0)],
        )?]),
    })
}

/// A track that turns `bone` about `axis` by (time, degrees) keys; its translation stays the rest one.
///
/// Between two keys slerp takes the shorter arc, so a step of more than 180 degrees would turn the
/// other way, the short way round. Such a step is refused: put a key in between.
fn rotation_track(bone: BoneId, axis: Vec3, keys: &[(f32, f32)]) -> Result<Track, SceneError> {
    for pair in keys.windows(2) {
        let ((_, from), (time, to)) = (pair[0], pair[1]);
        if (to - from).abs() >= 180.0 {
            return Err(SceneError::TurnTooFar { bone: NAMES[bone], time, degrees: to - from });
        }
    }
    let rotations: Vec<(f32, Quat)> = keys
        .iter()
        .map(|&(time, degrees)| (time, Quat::from_axis_angle(axis, degrees.to_radians())))
        .collect();
    Ok(Track { rotation: Some(Channel::linear(&rotations)), ..Track::new(bone) })
}

/// An edit to the built-in scene that cannot work.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// The bones, the skin or the mesh are not a valid model.
    Model(ModelError),
    /// A rotation key turns 180 degrees or more from the key before it.
    TurnTooFar { bone: &'static str, time: f32, degrees: f32 },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SceneError::Model(e) => write!(f, "{e}"),
            SceneError::TurnTooFar { bone, time, degrees } => write!(
                f,
                "{bone}'s key at {time} s turns {degrees} degrees from the key before; slerp would take \
                 the short way round instead, so add a key in between"
            ),
        }
    }
}

impl std::error::Error for SceneError {}

impl From<ModelError> for SceneError {
    fn from(e: ModelError) -> Self {
        SceneError::Model(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_walked_either_way_has_normals_pointing_out_at_45_degrees() {
        let square = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // Corner (0, 0) faces (-1, -1)/√2, corner (1, 0) faces (1, -1)/√2, and so on.
        let expected =
            [Vec3::new(-h, -h, 0.0), Vec3::new(h, -h, 0.0), Vec3::new(h, h, 0.0), Vec3::new(-h, h, 0.0)];
        for (got, want) in outline_normals(&square).iter().zip(expected) {
            assert!(got.abs_diff_eq(want, 1e-6), "{got} != {want}");
        }
        let mut backwards = square;
        backwards.reverse();
        let mut expected_backwards = expected;
        expected_backwards.reverse();
        for (got, want) in outline_normals(&backwards).iter().zip(expected_backwards) {
            assert!(got.abs_diff_eq(want, 1e-6), "clockwise: {got} != {want}");
        }
    }

    #[test]
    fn a_key_turning_180_degrees_or_more_is_refused_naming_the_bone() {
        let err = rotation_track(BONE2, Vec3::X, &[(0.0, 0.0), (1.5, 150.0), (2.5, -40.0)]).expect_err("190");
        assert_eq!(err, SceneError::TurnTooFar { bone: "bone2", time: 2.5, degrees: -190.0 });
        let message = err.to_string();
        assert!(message.starts_with("bone2's key at 2.5 s turns -190 degrees"), "{message}");
        assert!(message.contains("add a key in between"), "{message}");
        // 180 exactly is ambiguous (either way is as short): refused too. Just under is fine.
        assert!(rotation_track(BONE1, Vec3::Z, &[(0.0, 0.0), (1.0, 180.0)]).is_err());
        assert!(rotation_track(BONE1, Vec3::Z, &[(0.0, 0.0), (1.0, 179.0), (2.0, 358.0)]).is_ok());
    }
}
