//! The vertex inspector's side of the demo: which vertex is drawn where (for a click), its
//! candidates and blends this frame, and the numbers printed for it (`selection.rs` says when).

use super::super::cli::Blend;
use super::super::labels::to_pixels;
use super::Demo;
use glam::Vec2;
use skinning::dual_quat::blend_vertex_dqs;
use skinning::inspect::{Inspection, Report, inspect, skinned_position};

impl Demo {
    /// A left click at `cursor`: inspect the vertex drawn nearest it, if within `reach` pixels;
    /// clicking anywhere else stops inspecting.
    pub fn click(&mut self, cursor: Vec2, size: (u32, u32), reach: f32) {
        let (skin, pose) = (&self.model.skin, &self.pose);
        let view_projection = self.view.camera.view_projection(size.0, size.1);
        // Where the vertex is drawn: by dual quaternions if only they are shown, else linearly.
        let drawn = |v: usize| match self.method {
            Blend::Dqs => blend_vertex_dqs(&skin.vertices()[v], &pose.dq_palette, pose.dq_scale).into(),
            Blend::Lbs | Blend::Both => skinned_position(skin, &pose.palette, v),
        };
        let on_screen =
            (0..skin.len()).map(|v| to_pixels(view_projection, drawn(v), size).unwrap_or(Vec2::INFINITY));
        self.selection.pick(cursor, on_screen, reach);
    }

    /// The inspected vertex's candidates and blends, from the CPU's palettes on either road, so the
    /// inspector works with GPU skinning too; with dual quaternions on, where they put it as well.
    pub(super) fn inspection(&self) -> Option<Inspection> {
        let (skin, pose) = (&self.model.skin, &self.pose);
        let inspection = inspect(skin, &pose.palette, self.selection.vertex?);
        // `skinned::blend` makes the dual-quaternion palette whenever the method uses it.
        Some(match self.method {
            Blend::Lbs => inspection,
            Blend::Dqs | Blend::Both => inspection.with_dqs(skin, &pose.dq_palette, pose.dq_scale),
        })
    }

    /// The inspector's numbers for this frame, as the terminal shows them; None with no vertex.
    pub fn report(&self) -> Option<String> {
        let inspection = self.inspection()?;
        let clip = self.clip();
        let (time, method, skinning) = (clip.wrap(self.clock.time), self.method.name(), self.skinning.name());
        let report = Report { inspection: &inspection, model: &self.model };
        Some(format!("inspect: clip {} at t {time:.3} s, {method} on {skinning}\n{report}", clip.name))
    }

    /// [`Demo::report`], if the selection or the paused frame changed since the last one.
    pub fn take_report(&mut self) -> Option<String> {
        std::mem::take(&mut self.selection.report_due).then(|| self.report()).flatten()
    }
}
