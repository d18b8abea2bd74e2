//! Two small rigs of the kinds Blender and Mixamo export, written by the tests as glTF (chapter 12):
//!
//! - [`t_pose`]: a figure in a T-pose, named as Mixamo names its bones (`mixamorig:RightArm`), its
//!   limbs straight as a T-pose holds them, with a pole bone (`IKArmPole.R`) behind the right elbow
//!   that moves no vertex. Written out as `tests/t-pose.gltf` for the book's picture of the default
//!   bend, and for anyone to open.
//! - [`walker`]: the same figure with a walk that goes 2 units forwards and one that turns a
//!   quarter circle (chapter 17's root motion); [`walker_sized`] the same at another size, and
//!   [`stocky`] the same names on another body, without clips (chapter 18's retargeting).
//! - [`hung_foot`]: a leg whose foot hangs under a control bone under the model's root, as some
//!   Blender rigs export it: `Foot.R`'s parent and grandparent are `FootControl.R` and `Armature`.
//!
//! Both are Y-up, facing +z (glTF's front), the character's right towards -x. Every bone that moves
//! the mesh gets a box from its joint to its child's (or a short one past its end), all of it at
//! weight 1 on that bone.
//!
//! ```text
//! t_pose:    Armature ── mixamorig:Hips (0, 1, 0) ─┬─ Spine (+0.25 y) ─┬─ Neck ── Head
//!                                                   │                   ├─ RightShoulder ── RightArm (-0.2, 1.5, 0)
//!                                                   │                   │     ── RightForeArm (-0.48, 1.5, 0) ── RightHand (-0.74, 1.5, 0)
//!                                                   │                   └─ Left... (mirrored, +x)
//!                                                   ├─ RightUpLeg (-0.1, 0.95, 0) ── RightLeg (-0.1, 0.5, 0) ── RightFoot (-0.1, 0.08, 0)
//!                                                   ├─ Left... (mirrored)
//!                                                   └─ IKArmPole.R (-0.5, 1.55, -0.4): no vertex
//! clips:     Idle (the hips bob 2 cm over 2 s), Wave (the right elbow bends 90 degrees and back
//!            over 1 s), Pose (one key: the left arm lowered 70 degrees)
//! hung_foot: Armature ─┬─ Hips (0, 1, 0) ─┬─ Spine ─ UpperLeg.R (-0.1, 0.95, 0) ── LowerLeg.R (-0.1, 0.5, 0)
//!                      └─ FootControl.R (-0.1, 0.08, 0): no vertex ── Foot.R (at its control)
//! ```

use super::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

/// One bone: its name, its parent (by index), its joint relative to the parent's, and whether it
/// moves the mesh (a joint of the skin either way, but the armature).
struct Bone(String, Option<usize>, [f32; 3], Moves);

fn bone(name: impl Into<String>, parent: Option<usize>, at: [f32; 3], moves: Moves) -> Bone {
    Bone(name.into(), parent, at, moves)
}

#[derive(Clone, Copy, PartialEq)]
enum Moves {
    /// The armature: a node above the skin, no joint.
    Armature,
    /// A joint with no vertex of its own (a control bone).
    Nothing,
    /// A joint whose box reaches towards this direction past a bone without children.
    Mesh([f32; 3]),
}

use Moves::{Armature, Mesh, Nothing};

/// The joints of the T-posed figure, as `--reach` names them.
pub const HIPS: usize = 1;
pub const RIGHT_ARM: usize = 6;
pub const RIGHT_FORE_ARM: usize = 7;
pub const RIGHT_HAND: usize = 8;
pub const RIGHT_UP_LEG: usize = 13;
pub const RIGHT_LEG: usize = 14;
pub const RIGHT_FOOT: usize = 15;
pub const ARM_POLE: usize = 19;

fn t_pose_bones() -> Vec<Bone> {
    let mut bones = vec![
        bone("Armature", None, [0.0, 0.0, 0.0], Armature),
        bone("mixamorig:Hips", Some(0), [0.0, 1.0, 0.0], Mesh([0.0, 0.1, 0.0])),
        bone("mixamorig:Spine", Some(1), [0.0, 0.25, 0.0], Mesh([0.0, 0.1, 0.0])),
        bone("mixamorig:Neck", Some(2), [0.0, 0.3, 0.0], Mesh([0.0, 0.1, 0.0])),
        bone("mixamorig:Head", Some(3), [0.0, 0.1, 0.0], Mesh([0.0, 0.22, 0.0])),
    ];
    for (prefix, x) in [("Right", -1.0), ("Left", 1.0)] {
        let at = bones.len();
        let name = |part: &str| format!("mixamorig:{prefix}{part}");
        bones.push(bone(name("Shoulder"), Some(2), [0.08 * x, 0.25, 0.0], Mesh([0.0; 3])));
        bones.push(bone(name("Arm"), Some(at), [0.12 * x, 0.0, 0.0], Mesh([0.0; 3])));
        bones.push(bone(name("ForeArm"), Some(at + 1), [0.28 * x, 0.0, 0.0], Mesh([0.0; 3])));
        bones.push(bone(name("Hand"), Some(at + 2), [0.26 * x, 0.0, 0.0], Mesh([0.1 * x, 0.0, 0.0])));
    }
    for (prefix, x) in [("Right", -1.0), ("Left", 1.0)] {
        let at = bones.len();
        let name = |part: &str| format!("mixamorig:{prefix}{part}");
        bones.push(bone(name("UpLeg"), Some(1), [0.1 * x, -0.05, 0.0], Mesh([0.0; 3])));
        bones.push(bone(name("Leg"), Some(at), [0.0, -0.45, 0.0], Mesh([0.0; 3])));
        bones.push(bone(name("Foot"), Some(at + 1), [0.0, -0.42, 0.0], Mesh([0.0, -0.05, 0.16])));
    }
    bones.push(bone("IKArmPole.R", Some(1), [-0.5, 0.55, -0.4], Nothing));
    bones
}

/// The T-posed figure, its three clips, written as a glTF document.
pub fn t_pose() -> Gltf {
    let bones = t_pose_bones();
    let turn =
        |axis: Vec3, degrees: f32| Quat::from_axis_angle(axis, degrees.to_radians()).to_array().to_vec();
    let idle = vec![Channel {
        bone: 1,
        path: "translation",
        times: vec![0.0, 1.0, 2.0],
        values: vec![0.0, 1.0, 0.0, 0.0, 0.98, 0.0, 0.0, 1.0, 0.0],
    }];
    let bend = |d| turn(Vec3::Y, d);
    let wave = vec![Channel {
        bone: RIGHT_FORE_ARM,
        path: "rotation",
        times: vec![0.0, 0.5, 1.0],
        values: [bend(0.0), bend(-90.0), bend(0.0)].concat(),
    }];
    let pose = vec![Channel { bone: 10, path: "rotation", times: vec![0.0], values: turn(Vec3::Z, -70.0) }];
    build(&bones, &[("Idle", idle), ("Wave", wave), ("Pose", pose)])
}

/// The T-posed figure with clips that go somewhere (chapter 17): Walk carries the hips 2 units
/// along +z (its front) in 1 s, bobbing 3 cm at each step, the legs swinging 30 degrees; Turn walks
/// a quarter of a circle of radius 2 to its left (+x) in 2 s, turning with it; Idle stays.
pub fn walker() -> Gltf {
    walker_sized(1.0)
}

/// [`walker`], every length `size` times as long: its bones and its hips' keys (chapter 18's
/// copy twice the size).
pub fn walker_sized(size: f32) -> Gltf {
    let turn = |axis: Vec3, degrees: f32| Quat::from_axis_angle(axis, degrees.to_radians()).to_array();
    let hips = |z: f32, up: f32| [0.0, 1.0 + up, z].map(|x| x * size);
    let walk_hips = [hips(0.0, 0.0), hips(0.5, 0.03), hips(1.0, 0.0), hips(1.5, 0.03), hips(2.0, 0.0)];
    let quarters = vec![0.0, 0.25, 0.5, 0.75, 1.0];
    let swing = |sign: f32| [0.0, 1.0, 0.0, -1.0, 0.0].map(|s: f32| turn(Vec3::X, 30.0 * s * sign)).concat();
    let walk = vec![
        Channel { bone: 1, path: "translation", times: quarters.clone(), values: walk_hips.concat() },
        Channel { bone: RIGHT_UP_LEG, path: "rotation", times: quarters.clone(), values: swing(1.0) },
        Channel { bone: RIGHT_UP_LEG + 3, path: "rotation", times: quarters, values: swing(-1.0) },
    ];
    let angles: Vec<f32> = (0..=8).map(|k| k as f32 / 8.0 * std::f32::consts::FRAC_PI_2).collect();
    let times: Vec<f32> = (0..=8).map(|k| k as f32 / 4.0).collect();
    let places =
        angles.iter().flat_map(|a| [2.0 - 2.0 * a.cos(), 1.0, 2.0 * a.sin()].map(|x| x * size)).collect();
    let turns = angles.iter().flat_map(|a| turn(Vec3::Y, a.to_degrees())).collect();
    let turning = vec![
        Channel { bone: 1, path: "translation", times: times.clone(), values: places },
        Channel { bone: 1, path: "rotation", times, values: turns },
    ];
    let idle = vec![Channel {
        bone: 1,
        path: "translation",
        times: vec![0.0, 1.0],
        values: [hips(0.0, 0.0); 2].concat(),
    }];
    let mut bones = t_pose_bones();
    bones.iter_mut().for_each(|Bone(_, _, at, _)| *at = at.map(|x| x * size));
    build(&bones, &[("Walk", walk), ("Turn", turning), ("Idle", idle)])
}

/// The T-posed figure's bones, named the same, on another body: legs 0.7 times as long, arms 1.2
/// times, the spine 1.1 times; no animation (chapter 18's other rig).
pub fn stocky() -> Gltf {
    let mut bones = t_pose_bones();
    for Bone(name, _, at, _) in bones.iter_mut() {
        let times = match name.as_str() {
            n if n.contains("Leg") || n.contains("Foot") => 0.7,
            n if n.contains("Arm") || n.contains("Hand") => 1.2,
            n if n.contains("Spine") || n.contains("Neck") => 1.1,
            _ => 1.0,
        };
        *at = at.map(|x| x * times);
    }
    build(&bones, &[])
}

/// The leg whose foot hangs under a control bone.
pub fn hung_foot() -> Gltf {
    let bones = vec![
        bone("Armature", None, [0.0, 0.0, 0.0], Armature),
        bone("Hips", Some(0), [0.0, 1.0, 0.0], Mesh([0.0, 0.1, 0.0])),
        bone("Spine", Some(1), [0.0, 0.3, 0.0], Mesh([0.0, 0.3, 0.0])),
        bone("UpperLeg.R", Some(1), [-0.1, -0.05, 0.0], Mesh([0.0; 3])),
        bone("LowerLeg.R", Some(3), [0.0, -0.45, 0.0], Mesh([0.0, -0.4, 0.0])),
        bone("FootControl.R", Some(0), [-0.1, 0.08, 0.0], Nothing),
        bone("Foot.R", Some(5), [0.0, 0.0, 0.0], Mesh([0.0, -0.05, 0.16])),
    ];
    let idle = vec![Channel {
        bone: 1,
        path: "translation",
        times: vec![0.0, 1.0],
        values: vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
    }];
    build(&bones, &[("Idle", idle)])
}

/// One animated property of one bone: its keys' times and values, LINEAR.
struct Channel {
    bone: usize,
    path: &'static str,
    times: Vec<f32>,
    values: Vec<f32>,
}

/// Each bone's rest world position.
fn rest(bones: &[Bone]) -> Vec<Vec3> {
    let mut world: Vec<Vec3> = Vec::with_capacity(bones.len());
    for Bone(_, parent, at, _) in bones {
        world.push(parent.map_or(Vec3::ZERO, |p| world[p]) + Vec3::from(*at));
    }
    world
}

fn build(bones: &[Bone], clips: &[(&str, Vec<Channel>)]) -> Gltf {
    let mut g = Gltf::new();
    let world = rest(bones);
    let joints: Vec<usize> = (0..bones.len()).filter(|&b| bones[b].3 != Armature).collect();
    let ibm: Vec<f32> =
        joints.iter().flat_map(|&b| Mat4::from_translation(-world[b]).to_cols_array()).collect();
    let ibm = g.floats(&ibm, "MAT4");
    for (b, Bone(name, _, at, _)) in bones.iter().enumerate() {
        let children: Vec<usize> = (0..bones.len()).filter(|&c| bones[c].1 == Some(b)).collect();
        let mut node = json!({ "name": name, "translation": at });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        g.push("nodes", node);
    }
    let mesh_node = g.push("nodes", json!({ "name": "body", "mesh": 0, "skin": 0 }));
    g.json["scenes"] = json!([{ "nodes": [0, mesh_node] }]);
    g.json["scene"] = json!(0);
    g.push("skins", json!({ "joints": joints, "inverseBindMatrices": ibm }));
    let (mut positions, mut slots, mut indices) = (vec![], vec![], vec![]);
    for (b, bone) in bones.iter().enumerate() {
        let Mesh(past) = bone.3 else { continue };
        let child = (0..bones.len()).find(|&c| bones[c].1 == Some(b) && matches!(bones[c].3, Mesh(_)));
        let to = child.map_or(world[b] + Vec3::from(past), |c| world[c]);
        let slot = joints.iter().position(|&j| j == b).expect("a joint") as u32;
        add_box(world[b], to, slot, &mut positions, &mut slots, &mut indices);
    }
    let weights: Vec<f32> = slots.iter().flat_map(|_| [1.0, 0.0, 0.0, 0.0]).collect();
    let slots: Vec<u32> = slots.iter().flat_map(|&s| [s, 0, 0, 0]).collect();
    let attributes = json!({
        "POSITION": g.floats(&positions, "VEC3"),
        "JOINTS_0": g.ints(&slots, "VEC4", 5123, false),
        "WEIGHTS_0": g.floats(&weights, "VEC4"),
    });
    let indices = g.ints(&indices, "SCALAR", 5125, false);
    g.push(
        "meshes",
        json!({ "name": "body", "primitives": [{ "attributes": attributes, "indices": indices }] }),
    );
    for (name, channels) in clips {
        let (mut samplers, mut targets) = (vec![], vec![]);
        for c in channels {
            let kind = if c.path == "rotation" { "VEC4" } else { "VEC3" };
            let (input, output) = (g.floats(&c.times, "SCALAR"), g.floats(&c.values, kind));
            targets.push(json!({ "sampler": samplers.len(), "target": { "node": c.bone, "path": c.path } }));
            samplers.push(json!({ "input": input, "output": output }));
        }
        g.push("animations", json!({ "name": name, "channels": targets, "samplers": samplers }));
    }
    g
}

/// A box around the segment `from` → `to` (or a cube, for a segment of no length), its eight
/// corners on joint slot `slot`, its twelve triangles counter-clockwise seen from outside.
fn add_box(
    from: Vec3,
    to: Vec3,
    slot: u32,
    positions: &mut Vec<f32>,
    slots: &mut Vec<u32>,
    indices: &mut Vec<u32>,
) {
    let along = (to - from).try_normalize().unwrap_or(Vec3::Y);
    let (to, across) = if from.distance(to) < 1e-6 { (from + along * 0.06, 0.04) } else { (to, 0.035) };
    let side = along.any_orthonormal_vector();
    let up = along.cross(side);
    let base = (positions.len() / 3) as u32;
    for corner in 0..8 {
        let end = if corner & 4 == 0 { from } else { to };
        let s = if corner & 1 == 0 { -across } else { across };
        let u = if corner & 2 == 0 { -across } else { across };
        positions.extend((end + side * s + up * u).to_array());
        slots.push(slot);
    }
    // Corner bits: 1 side, 2 up, 4 along. A right-handed frame (side × up = along), so these faces
    // wind counter-clockwise seen from outside.
    const FACES: [[u32; 4]; 6] =
        [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    for [a, b, c, d] in FACES {
        indices.extend([a, b, c, a, c, d].map(|i| base + i));
    }
}
