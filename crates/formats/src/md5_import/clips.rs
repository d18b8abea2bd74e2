//! Animations become clips: each `.md5anim` is the article's keyframed clip, one track per joint.
//!
//! An animation belongs to a mesh only if it describes the same joints: the same count, and joint
//! by joint the same name and parent ([`fits`] names the first difference).
//!
//! Frame `k` is a key at `k / frameRate` seconds. A joint's key is the base frame with the
//! components its `flags` name replaced from the frame's numbers, and `w` computed as for the
//! mesh's joints. **Unlike the md5mesh's joints, an animation's are relative to their parent** (a
//! root's to object space): exactly the article's local transform, so the keys go into a
//! [`Track`] as they are and `compute_world` does the rest. Between keys, positions are lerped
//! and orientations slerped along the shorter arc, as Doom 3 does. The clip lasts
//! `(numFrames - 1) / frameRate` seconds, Doom 3's duration, from the first frame to the last, and
//! loops like every other clip.
//!
//! A joint whose flags replace no translation (or no orientation) keeps its base frame's for the
//! whole clip: a channel of one key. The base frame need not be the bind pose, so every joint gets
//! a track.

use super::anim_file::AnimFile;
use super::error::quote;
use super::mesh_file::{FileJoint, unit_quaternion};
use glam::{DVec3, Quat, Vec3};
use skinning_method::clip::{Channel, Clip, Interpolation, Motion, Track};

/// Whether the animation's joints are the mesh's: the first difference, in words, if not.
pub fn fits(mesh: &[FileJoint], anim: &AnimFile) -> Result<(), String> {
    if mesh.len() != anim.hierarchy.len() {
        return Err(format!("it moves {} joints, the mesh has {}", anim.hierarchy.len(), mesh.len()));
    }
    let parent = |p: Option<usize>| p.map_or("none (a root)".to_string(), |p| p.to_string());
    for (j, (ours, theirs)) in mesh.iter().zip(&anim.hierarchy).enumerate() {
        if ours.name != theirs.name {
            return Err(format!(
                "its joint {j} is {}, the mesh's is {}",
                quote(theirs.name),
                quote(ours.name)
            ));
        }
        if ours.parent != theirs.parent {
            return Err(format!(
                "its joint {j} {}'s parent is {}, in the mesh {}",
                quote(ours.name),
                parent(theirs.parent),
                parent(ours.parent)
            ));
        }
    }
    Ok(())
}

/// The clip of an animation that [`fits`]; an error names the frame and joint of an orientation
/// that is not part of a unit quaternion.
pub fn clip(name: &str, anim: &AnimFile) -> Result<Clip, String> {
    let rate = anim.frame_rate as f32;
    let times: Vec<f32> = (0..anim.frame_count).map(|k| k as f32 / rate).collect();
    let mut tracks = Vec::with_capacity(anim.hierarchy.len());
    for (j, joint) in anim.hierarchy.iter().enumerate() {
        let (base_position, base_orientation) = anim.baseframe[j];
        let moves = joint.flags & 0b000111 != 0;
        let turns = joint.flags & 0b111000 != 0;
        let keys = |animated: bool| if animated { anim.frame_count } else { 1 };
        let mut positions = Vec::with_capacity(keys(moves));
        let mut orientations = Vec::with_capacity(keys(turns));
        for k in 0..keys(moves || turns) {
            // The base frame, with the flagged components replaced in order: Tx Ty Tz Qx Qy Qz.
            let mut components = [
                base_position.x as f64,
                base_position.y as f64,
                base_position.z as f64,
                base_orientation.x,
                base_orientation.y,
                base_orientation.z,
            ];
            let mut numbers = anim.frame(k)[joint.start..].iter();
            for (bit, component) in components.iter_mut().enumerate() {
                if joint.flags & (1 << bit) != 0 {
                    // `anim_file` checked that the joint's numbers lie inside the frame.
                    *component = numbers.next().copied().unwrap_or(*component);
                }
            }
            let [tx, ty, tz, qx, qy, qz] = components;
            if k == 0 || moves {
                positions.push(Vec3::new(tx as f32, ty as f32, tz as f32));
            }
            if k == 0 || turns {
                let orientation = unit_quaternion(DVec3::new(qx, qy, qz))
                    .map_err(|problem| format!("frame {k}, joint {j} {}: {problem}", quote(joint.name)))?;
                orientations.push(orientation);
            }
        }
        tracks.push(Track {
            translation: Some(channel(&times, positions)),
            rotation: Some(channel::<Quat>(&times, orientations)),
            ..Track::new(j)
        });
    }
    let duration = (anim.frame_count - 1) as f32 / rate;
    Ok(Clip { name: name.to_string(), duration, motion: Motion::Keyframes(tracks) })
}

/// A linear channel with a key per frame, or one key (at 0) for a value that never changes.
fn channel<T>(times: &[f32], values: Vec<T>) -> Channel<T> {
    Channel { times: times[..values.len()].to_vec(), values, interpolation: Interpolation::Linear }
}
