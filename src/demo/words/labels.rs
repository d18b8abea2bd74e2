//! What words go where on the picture: the corner line (top left), each bone's name beside its
//! joint, and for the vertex inspector, beside each candidate its bone and weight (on the side away
//! from the blend, clear of the lines) and under the corner line the sum, each term in its colour:
//! `vertex 2 = 0.50 bone1 + 0.50 bone2`, on as many lines as the picture's width needs. No label covers another: each takes the first free spot
//! near what it names, or is left out (`placement.rs`); the names go from the root down the tree,
//! so on a crowded picture a hand's fingers give way to the arm.
//!
//! Pure: [`Labels::compose`] fills a [`TextBatch`] (`font.rs`) in window pixels, projecting the
//! joints and candidates with the frame's camera; `text.rs` draws it. Everything it needs is
//! allocated in [`Labels::new`], so composing a frame allocates nothing.

use super::font::{GLYPH, TextBatch};
use super::placement::{Placement, beside_spots, name_spots};
use crate::demo::colors::{ORANGE, Rgba, TEXT, candidate_color, candidate_size};
use glam::{Mat4, Vec2, Vec3};
use skinning_method::inspect::Inspection;
use skinning_method::model::Model;
use skinning_method::printable::printable;
use skinning_method::skeleton::BoneId;
use std::fmt::Write;

/// The words of one frame, as the demo asks for them.
pub struct Words<'a> {
    /// The corner line.
    pub status: &'a str,
    /// Bone names beside the joints (`N`).
    pub names: bool,
    /// The screen's scale factor: 1, or 2 on a high-DPI screen.
    pub scale: f32,
}

/// The corner line's distance from the window's top and left edges, at scale 1.
pub const MARGIN: f32 = 6.0;
/// From one line of words to the next, at scale 1.
pub const LINE: f32 = 1.5 * GLYPH;
/// Room for this many lit font pixels (shadows included): about 600 characters.
pub const CAPACITY: usize = 32 * 1024;

pub struct Labels {
    batch: TextBatch,
    bone_names: Vec<String>,
    /// The bones named on screen, the joints the picture draws, in the order they are placed:
    /// nearest the root first.
    named: Vec<BoneId>,
    /// The boxes this frame's labels took.
    placement: Placement,
    /// The bone of each joint of the skin, to name a candidate.
    joint_bones: Vec<BoneId>,
    /// A candidate's label, written afresh each frame into the same memory.
    line: String,
}

impl Labels {
    pub fn new(model: &Model) -> Labels {
        // Made printable once here: a name is the file's, and the frame must not allocate.
        let bone_names: Vec<String> =
            model.skeleton.bones().iter().map(|b| printable(&b.name).into_owned()).collect();
        let longest = bone_names.iter().map(String::len).max().unwrap_or(0);
        let skeleton = &model.skeleton;
        let depth = |b: BoneId| std::iter::successors(Some(b), |&b| skeleton.bone(b).parent).count();
        let joints = model.joint_bones();
        let mut named: Vec<BoneId> = (0..skeleton.len()).filter(|&b| joints[b]).collect();
        named.sort_by_key(|&b| (depth(b), b));
        Labels {
            batch: TextBatch::with_capacity(CAPACITY),
            bone_names,
            // The corner line's two lines, the sum, the candidates and their dqs, each name.
            placement: Placement::with_room(named.len() + 32),
            named,
            joint_bones: model.skin.joints().iter().map(|j| j.bone).collect(),
            // The inspector's sum: "vertex N = " and four terms of "0.50 name + " never need more.
            line: String::with_capacity(4 * (longest + 10) + 32),
        }
    }

    pub fn batch(&self) -> &TextBatch {
        &self.batch
    }

    /// This frame's words. `joints` are the bones' joints in the world (None when the skeleton is
    /// hidden: no names then), `size` the viewport in pixels.
    pub fn compose(
        &mut self,
        words: &Words,
        joints: Option<&[Vec3]>,
        inspection: Option<&Inspection>,
        view_projection: Mat4,
        size: (u32, u32),
    ) {
        let s = words.scale.round().max(1.0);
        self.batch.clear();
        self.placement.clear(size);
        // Each line of the corner line is a row (several clips add rows), wrapped if too long.
        let mut below = MARGIN * s;
        for row in words.status.split('\n') {
            for line in StatusLines::new(row, size.0, s) {
                self.batch.add(line, Vec2::new(MARGIN * s, below), s, TEXT);
                self.placement.take(Vec2::new(MARGIN * s, below), line.chars().count(), s);
                below += LINE * s;
            }
        }
        if let Some(inspection) = inspection {
            self.inspector_words(inspection, view_projection, size, s, below);
        }
        // The names last, each where it covers no word placed before it, or not at all.
        let Some(joints) = joints.filter(|_| words.names) else { return };
        for &bone in &self.named {
            let Some(at) = to_pixels(view_projection, joints[bone], size) else { continue };
            let name = &self.bone_names[bone];
            let chars = name.chars().count();
            if let Some(spot) = self.placement.first_free(&name_spots(at, chars, s), chars, s) {
                self.batch.add(name, spot, s, TEXT);
            }
        }
    }

    /// The inspector's sum starting `below` pixels from the top, and its labels.
    fn inspector_words(
        &mut self,
        inspection: &Inspection,
        view_projection: Mat4,
        size: (u32, u32),
        s: f32,
        below: f32,
    ) {
        // The sum, one line under the corner line, a run of text at a time, wrapped before a term
        // that would run off the right edge (long names: `mixamorig:LeftForeArm`). (Writing into
        // a String with room to spare cannot fail, and does not allocate.)
        let left = MARGIN * s;
        let right = size.0 as f32 - MARGIN * s;
        let mut at = Vec2::new(left, below);
        self.line.clear();
        let _ = write!(self.line, "vertex {} = ", inspection.vertex);
        at = self.add_run(at, s, TEXT);
        for (slot, c) in inspection.candidates().iter().enumerate() {
            let name = &self.bone_names[self.joint_bones[c.joint]];
            // " + 0.50 name": 3 + 5 characters and the name.
            let wide = (8 + name.chars().count()) as f32 * GLYPH * s;
            if slot > 0 && at.x + wide > right && at.x > left {
                self.placement.take(Vec2::new(left, at.y), ((at.x - left) / (GLYPH * s)).round() as usize, s);
                at = Vec2::new(left, at.y + LINE * s);
            }
            if slot > 0 {
                self.line.clear();
                self.line.push_str(if at.x > left { " + " } else { "+ " });
                at = self.add_run(at, s, TEXT);
            }
            self.line.clear();
            let _ = write!(self.line, "{:.2} {}", c.weight, self.bone_names[self.joint_bones[c.joint]]);
            at = self.add_run(at, s, candidate_color(slot, 1.0));
        }
        let chars = ((at.x - left) / (GLYPH * s)).round() as usize;
        self.placement.take(Vec2::new(left, at.y), chars, s);
        // Beside each candidate its bone and weight, then where dual quaternions put the vertex, if
        // they are on: named, in their mesh's colour.
        let Some(blend) = to_pixels(view_projection, inspection.blended, size) else { return };
        for (slot, c) in inspection.candidates().iter().enumerate() {
            let Some(point) = to_pixels(view_projection, c.position, size) else { continue };
            self.line.clear();
            let _ = write!(self.line, "{} {:.2}", self.bone_names[self.joint_bones[c.joint]], c.weight);
            self.add_beside(point, blend, c.weight, s, candidate_color(slot, c.weight));
        }
        if let Some(point) = inspection.dqs.and_then(|p| to_pixels(view_projection, p, size)) {
            self.line.clear();
            self.line.push_str("dqs");
            self.add_beside(point, blend, 0.0, s, ORANGE);
        }
    }

    /// Adds `self.line` beside `point`, a candidate of `weight` (whose size keeps the label a little
    /// further off), on the side away from `blend` if it is free, else the nearest free spot.
    fn add_beside(&mut self, point: Vec2, blend: Vec2, weight: f32, s: f32, color: Rgba) {
        let chars = self.line.chars().count();
        let beside = candidate_label_position(point, blend, weight, chars, s);
        let spots = beside_spots(point, beside, chars, label_gap(weight, s), s);
        if let Some(spot) = self.placement.first_free(&spots, chars, s) {
            self.batch.add(&self.line, spot, s, color);
        }
    }

    /// Adds `self.line` at `at`; returns where the next run starts.
    fn add_run(&mut self, at: Vec2, s: f32, color: Rgba) -> Vec2 {
        self.batch.add(&self.line, at, s, color);
        at + Vec2::new(self.line.chars().count() as f32 * GLYPH * s, 0.0)
    }
}

/// One row of the corner line as the lines a window `width` pixels wide holds: each cut at the
/// last double space (they separate its facts) before it would run off the right edge, else at the
/// last space (a long name of a chain), else where the edge is. Nothing is lost but the spaces at a
/// cut; a window too narrow for one character still gets one per line. Allocates nothing.
pub struct StatusLines<'a> {
    rest: &'a str,
    fits: usize,
}

impl<'a> StatusLines<'a> {
    pub fn new(row: &'a str, width: u32, scale: f32) -> StatusLines<'a> {
        let fits = ((width as f32 - 2.0 * MARGIN * scale) / (GLYPH * scale)).max(1.0) as usize;
        StatusLines { rest: row, fits }
    }
}

impl<'a> Iterator for StatusLines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let Some((end, _)) = self.rest.char_indices().nth(self.fits) else {
            return Some(std::mem::take(&mut self.rest)); // the rest fits
        };
        let head = &self.rest[..end];
        let cut = (head.rfind("  ").filter(|&c| c > 0)).or(head.rfind(' ').filter(|&c| c > 0)).unwrap_or(end);
        let line = &self.rest[..cut];
        self.rest = self.rest[cut..].trim_start();
        Some(line)
    }
}

/// The pixel (from the top-left corner) where `point` lands; None behind the camera.
pub fn to_pixels(view_projection: Mat4, point: Vec3, (width, height): (u32, u32)) -> Option<Vec2> {
    let clip = view_projection * point.extend(1.0);
    if clip.w <= 0.0 {
        return None;
    }
    let (x, y) = (clip.x / clip.w, clip.y / clip.w);
    Some(Vec2::new((x + 1.0) / 2.0 * width as f32, (1.0 - y) / 2.0 * height as f32))
}

/// Where a candidate's label of `chars` characters starts: beside its point (whose size tells its
/// weight), on the side away from the blend, so it stays clear of the line between them.
pub fn candidate_label_position(candidate: Vec2, blend: Vec2, weight: f32, chars: usize, scale: f32) -> Vec2 {
    let gap = label_gap(weight, scale);
    let x = if candidate.x < blend.x {
        candidate.x - gap - chars as f32 * GLYPH * scale
    } else {
        candidate.x + gap
    };
    Vec2::new(x, candidate.y - GLYPH / 2.0 * scale)
}

/// How far a candidate's label keeps from its point: past the point (whose size tells its
/// weight), and 3 pixels more.
fn label_gap(weight: f32, scale: f32) -> f32 {
    candidate_size(crate::demo::colors::POINT_SIZE * scale, weight) / 2.0 + 3.0 * scale
}

#[cfg(test)]
mod overlap_tests;
#[cfg(test)]
mod tests;
