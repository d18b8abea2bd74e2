//! What the mouse does to the [`Demo`]: a right-drag bends a bone by hand (`bend.rs`), a left click
//! inspects a vertex (`selection.rs`), and in reach mode a left-drag on a joint moves its target
//! (`reach.rs`); a left-drag anywhere else orbits (`view.rs`, from the window).

use super::Demo;
use crate::demo::show::bend::BendDrag;
use crate::demo::show::selection;
use glam::Vec2;
use skinning_method::frame::{Blending, Frame, Still};

impl Demo {
    /// Right button pressed at `cursor`: start bending the bone whose joint is nearest, if one is
    /// within `reach` pixels. Returns whether a bone was caught.
    pub fn start_bend(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) -> bool {
        let camera = &self.view.camera;
        let drawn = &self.view.drawn_bones;
        let skeleton = &self.model.skeleton;
        self.bend = BendDrag::start(cursor, drawn, skeleton, camera, size, reach, &self.pose);
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
        // A bend is a new frame too: print it once the drag is over.
        if self.bend.take().is_some() && self.clock.paused && self.selection.vertex.is_some() {
            self.selection.report_due = true;
        }
    }

    /// A left click at `cursor`: inspect the vertex drawn nearest it, if within `reach` pixels;
    /// clicking anywhere else stops inspecting. Where each vertex is drawn is the frame's to say:
    /// it runs again from the pose as it stands (its mesh reshaped by the morph as before), blended
    /// on the CPU by the method drawn, the linear one when both are, even where the GPU blends,
    /// whose numbers are not read back. The next frame makes its own.
    pub fn click(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) {
        let skinner = &mut self.skinned.skinner;
        (skinner.method, skinner.compare) = (self.skinned.method.first(), false);
        let blending = Blending::Skin { by: skinner, normals: false };
        let again =
            Frame { blending, reshape: Some(&mut self.morph.stage()), ..Frame::new(&Still, self.clock.time) };
        // This pose's palette was blended by this method before, or gave way to linear blending.
        let _blended_before = self.pose.run(&self.model, again);
        let view_projection = self.view.camera.view_projection(size.0, size.1);
        let on_screen = selection::on_screen(&self.pose.skinned, view_projection, size);
        self.selection.pick(cursor, on_screen, reach);
    }

    /// Left button pressed at `cursor` in reach mode: catch the joint or target marker nearest on
    /// screen within `reach` pixels, to drag its target. Returns whether one was caught; if not,
    /// the drag orbits.
    pub fn start_reach(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) -> bool {
        let camera = &self.view.camera;
        let drawn = &self.view.drawn_bones;
        self.reach.catch(cursor, &self.model, &self.pose, drawn, camera, size, reach)
    }

    /// The cursor moved during a target's drag: the target follows, and the chain reaches for it.
    pub fn drag_reach(&mut self, cursor: Vec2) {
        if self.reach.drag_to(cursor) {
            self.update();
        }
    }

    /// The left button came up: returns whether it ended a target's drag (and so was no click).
    pub fn end_reach(&mut self) -> bool {
        self.reach.release()
    }
}
