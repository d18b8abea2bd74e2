//! The `.md5anim` file, read as it is written: the joints it moves, a base frame, and one short
//! list of numbers per frame.
//!
//! ```text
//! MD5Version 10
//! commandline "..."
//! numFrames 140
//! numJoints 33
//! frameRate 24
//! numAnimatedComponents 198
//! hierarchy {
//!     "origin" -1 63 0       // name parent flags first-number
//! }
//! bounds { ( min ) ( max ) ... }                   // a box per frame, for culling: read past
//! baseframe { ( tx ty tz ) ( qx qy qz ) ... }       // one per joint, relative to its parent
//! frame 0 { 198 numbers }
//! ```
//!
//! A frame starts from the base frame. For joint `j`, bit `k` of its `flags` (1 Tx, 2 Ty, 4 Tz,
//! 8 Qx, 16 Qy, 32 Qz) says that component is replaced, by the frame's numbers in that order from
//! the joint's first number on (`clips.rs` puts them together). Counts are checked against the
//! text before anything is allocated, each joint's numbers must lie inside a frame, and every frame
//! must hold exactly `numAnimatedComponents` numbers.

use super::error::{Md5Error, quote};
use super::mesh_file::{unit_quaternion, version};
use super::tokens::{Token, Tokens};
use glam::{DVec3, Vec3};

/// The fewest bytes of text each entry takes (its shortest form), to check counts against.
const JOINT_BYTES: usize = "\"\"0 0 0".len();
const BOUNDS_BYTES: usize = "(0 0 0)(0 0 0)".len();
const BASE_BYTES: usize = "(0 0 0)(0 0 0)".len();
const FRAME_BYTES: usize = "frame 0{}".len();

/// The whole `.md5anim`.
pub struct AnimFile<'a> {
    /// The `commandline` text, where the file has one: this program's own files keep the clip's
    /// name there (`md5_export/names.rs`).
    pub commandline: Option<&'a str>,
    pub frame_rate: u32,
    pub hierarchy: Vec<AnimJoint<'a>>,
    /// Each joint's position and orientation (x y z) before a frame replaces any of them.
    pub baseframe: Vec<(Vec3, DVec3)>,
    /// Numbers per frame (`numAnimatedComponents`).
    pub components: usize,
    /// Every frame's numbers, frame after frame: frame `k` is `frames[k * components..][..components]`.
    pub frames: Vec<f64>,
    pub frame_count: usize,
}

/// A joint as the animation names it, and which of its numbers each frame replaces.
pub struct AnimJoint<'a> {
    pub name: &'a str,
    pub parent: Option<usize>,
    pub flags: u8,
    /// Where its replaced components start in a frame's numbers.
    pub start: usize,
}

impl AnimFile<'_> {
    /// Frame `k`'s numbers.
    pub fn frame(&self, k: usize) -> &[f64] {
        &self.frames[k * self.components..(k + 1) * self.components]
    }
}

/// Reads and checks an `.md5anim`'s text: its head, then its blocks in the file's order.
pub fn parse(text: &str) -> Result<AnimFile<'_>, Md5Error> {
    let mut t = Tokens::new(text);
    let commandline = version(&mut t, ".md5anim")?;
    let head = head(&mut t)?;
    let hierarchy = hierarchy(&mut t, &head)?;
    bounds(&mut t, head.frame_count)?;
    let baseframe = baseframe(&mut t, head.joint_count)?;
    let frames = frames(&mut t, &head)?;
    t.finish()?;
    let Head { frame_count, frame_rate, components, .. } = head;
    Ok(AnimFile { commandline, frame_rate, hierarchy, baseframe, components, frames, frame_count })
}

/// The numbers the file's head gives, before its blocks.
struct Head {
    /// `numFrames`, at least 1.
    frame_count: usize,
    /// `numJoints`, at least 1.
    joint_count: usize,
    /// `frameRate`, at least 1.
    frame_rate: u32,
    /// `numAnimatedComponents`, at most 6 per joint.
    components: usize,
}

/// `numFrames`, `numJoints`, `frameRate` and `numAnimatedComponents`, each checked, and the counts
/// against the text left.
fn head(t: &mut Tokens<'_>) -> Result<Head, Md5Error> {
    let frame_count = t.count("numFrames", BOUNDS_BYTES + FRAME_BYTES)?;
    if frame_count == 0 {
        return Err(t.error("numFrames is 0: an animation needs at least one frame".into()));
    }
    let joint_count = t.count("numJoints", JOINT_BYTES + BASE_BYTES)?;
    if joint_count == 0 {
        return Err(t.error("numJoints is 0: an animation moves at least one joint".into()));
    }
    t.keyword("frameRate")?;
    let rate = t.integer("frames per second")?;
    let frame_rate = match u32::try_from(rate) {
        Ok(rate) if rate > 0 => rate,
        _ => {
            return Err(t.error(format!(
                "frameRate is {rate}; it must be a whole number of frames a second, 1 or more"
            )));
        }
    };
    let components = t.count("numAnimatedComponents", 0)?;
    if components > 6 * joint_count {
        return Err(t.error(format!(
            "numAnimatedComponents is {components}, more than 6 per joint for {joint_count} joints"
        )));
    }
    // Every frame's numbers, each at least a digit and a space, must fit in the text left.
    let per_frame = BOUNDS_BYTES + FRAME_BYTES + 2 * components;
    t.fits("numFrames", frame_count, per_frame)?;
    Ok(Head { frame_count, joint_count, frame_rate, components })
}

/// The `hierarchy` block: each joint's name, parent, flags and where its numbers start.
fn hierarchy<'a>(t: &mut Tokens<'a>, head: &Head) -> Result<Vec<AnimJoint<'a>>, Md5Error> {
    let Head { joint_count, components, .. } = *head;
    t.keyword("hierarchy")?;
    t.mark(b'{')?;
    let mut hierarchy = Vec::with_capacity(joint_count);
    for index in 0..joint_count {
        let name = t.quoted("a joint's name")?;
        let parent = match t.integer("a joint's parent")? {
            -1 => None,
            p if (0..index as i64).contains(&p) => Some(p as usize),
            p => {
                let last = index as i64 - 1;
                return Err(t.error(format!(
                    "joint {index} {}'s parent is {p}; it must be an earlier joint (0 to {last}) or -1",
                    quote(name)
                )));
            }
        };
        let flags = t.integer("a joint's flags")?;
        let Ok(flags @ 0..=63) = u8::try_from(flags) else {
            return Err(t.error(format!(
                "joint {index}'s flags are {flags}; only bits 1 to 32 (0 to 63) mean anything"
            )));
        };
        let start = t.integer("a joint's first number")?;
        let used = flags.count_ones() as i64;
        if start < 0 || start + used > components as i64 {
            return Err(t.error(format!(
                "joint {index}'s {used} numbers start at {start}, outside a frame's {components}"
            )));
        }
        hierarchy.push(AnimJoint { name, parent, flags, start: start as usize });
    }
    t.mark(b'}')?;
    Ok(hierarchy)
}

/// The `bounds` block, read past: its boxes are for culling, and this program frames the model
/// itself (`camera.rs`).
fn bounds(t: &mut Tokens<'_>, frame_count: usize) -> Result<(), Md5Error> {
    t.keyword("bounds")?;
    t.mark(b'{')?;
    for _ in 0..frame_count {
        t.triple("a bounding box corner")?;
        t.triple("a bounding box corner")?;
    }
    t.mark(b'}')?;
    Ok(())
}

/// The `baseframe` block: each joint's position and orientation before a frame replaces any.
fn baseframe(t: &mut Tokens<'_>, joint_count: usize) -> Result<Vec<(Vec3, DVec3)>, Md5Error> {
    t.keyword("baseframe")?;
    t.mark(b'{')?;
    let mut baseframe = Vec::with_capacity(joint_count);
    for j in 0..joint_count {
        let position = t.triple("a base frame position")?;
        let orientation = t.triple64("a base frame orientation")?;
        unit_quaternion(orientation)
            .map_err(|problem| t.error(format!("joint {j}'s base frame: {problem}")))?;
        baseframe.push((position, orientation));
    }
    t.mark(b'}')?;
    Ok(baseframe)
}

/// Every `frame k { ... }` block, each exactly `numAnimatedComponents` numbers.
fn frames(t: &mut Tokens<'_>, head: &Head) -> Result<Vec<f64>, Md5Error> {
    let Head { frame_count, components, .. } = *head;
    let mut frames = Vec::with_capacity(frame_count * components);
    for k in 0..frame_count {
        t.numbered("frame", k)?;
        t.mark(b'{')?;
        for n in 0..components {
            match t.number_or_close("a frame's number")? {
                Some(x) => frames.push(x),
                None => {
                    let problem =
                        format!("frame {k} has {n} numbers; numAnimatedComponents says {components}");
                    return Err(t.error(problem));
                }
            }
        }
        if matches!(t.peek()?, Some(Token::Word(_))) {
            t.next()?;
            return Err(
                t.error(format!("frame {k} has more numbers than numAnimatedComponents, {components}"))
            );
        }
        t.mark(b'}')?;
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints 1\nframeRate 24\n\
        numAnimatedComponents 2\nhierarchy {\n\"root\" -1 9 0\n}\nbounds {\n( 0 0 0 ) ( 1 1 1 )\n\
        ( 0 0 0 ) ( 1 1 1 )\n}\nbaseframe {\n( 1 2 3 ) ( 0 0 0 )\n}\nframe 0 {\n5 0.5\n}\nframe 1 {\n6 0\n}\n";

    #[test]
    fn frames_hold_their_numbers() {
        let anim = parse(GOOD).unwrap();
        assert_eq!((anim.frame_rate, anim.frame_count, anim.components), (24, 2, 2));
        assert_eq!((anim.hierarchy[0].flags, anim.frame(1)), (9, &[6.0, 0.0][..]));
    }

    #[test]
    fn frames_with_too_few_or_too_many_numbers_and_a_rate_of_0_are_refused() {
        let fails = |from: &str, to: &str, expected: &str| {
            let e = parse(&GOOD.replace(from, to)).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains(expected), "{from} -> {to}: {e}");
        };
        fails("6 0\n", "6\n", "line 22: frame 1 has 1 numbers; numAnimatedComponents says 2");
        fails("5 0.5\n", "5 0.5 7\n", "line 18: frame 0 has more numbers than numAnimatedComponents, 2");
        fails("frameRate 24", "frameRate 0", "line 5: frameRate is 0");
        fails("-1 9 0", "-1 9 1", "joint 0's 2 numbers start at 1, outside a frame's 2");
        fails("-1 9 0", "-1 64 0", "flags are 64");
        fails("numAnimatedComponents 2", "numAnimatedComponents 7", "more than 6 per joint");
        fails("numFrames 2", "numFrames 200", "numFrames says 200");
        fails("frame 1 {", "frame 2 {", "expected frame 1, found frame 2");
    }
}
