//! What the demo says about a frame: the corner line and the title, and the inspector's numbers
//! for the terminal: the vertex's morph (if its mesh has targets), then the skin's table
//! (`skinning_method::inspect`), then an MD5 model's stored weights.

use super::super::selection;
use super::Demo;
use crate::demo::words::status::{self, StatusLine};
use skinning_formats::md5_import::WeightTable;
use skinning_method::inspect::{Inspection, MorphTable, Report};

impl Demo {
    /// What the corner line and the title say about this frame.
    pub(super) fn status_line(&self) -> StatusLine<'_> {
        StatusLine {
            clip: &self.clip_names[self.clip],
            weights: self.view.weight_bone.map(|b| self.view.bone_names[b].as_str()),
            time: self.mixing.current_time(),
            speed: self.clock.speed,
            paused: self.clock.paused,
            method: self.skinned.method.name(),
            skinning: self.skinned.skinning.name(),
            cpu_work: self.skinned.cpu_work(self.shown()),
            morph: self.morph.status(),
            cpu: self.status.cpu_average.shown().unwrap_or(self.status.cpu),
            frame: self.status.frame,
        }
    }

    /// The window title: what is playing and what it costs. The time is the clip's own (wrapped).
    pub fn title(&self, fps: f64) -> String {
        status::title(&self.status_line(), fps)
    }

    /// The inspector's numbers for this frame, as the terminal shows them; None with no vertex.
    pub fn report(&self) -> Option<String> {
        let inspection = self.inspection()?;
        let method = self.skinned.method.name();
        let skinning = self.skinned.skinning.name();
        let report = Report { inspection: &inspection, model: &self.model };
        // The clip's own time, as the mixer had it (in step, not the clock's time wrapped).
        let time = self.mixing.current_time();
        let name = &self.clip_names[self.clip];
        let morph = MorphTable {
            skin: &self.model.skin,
            targets: &self.morph.targets,
            weights: &self.morph.morphed.weights,
            vertex: inspection.vertex,
        };
        let mut text =
            format!("inspect: clip {name} at t {time:.3} s, {method} on {skinning}\n{morph}{report}");
        if let Some(stored) = &self.stored {
            text.push_str(&WeightTable { model: &self.model, stored, vertex: inspection.vertex }.to_string());
        }
        Some(text)
    }

    /// The name `P` saves the picture under: the clip that plays and its own time as the corner line
    /// shows it, the picture's (during a crossfade in step, not the clock's time wrapped into the
    /// clip's length).
    pub fn screenshot_name(&self) -> String {
        crate::demo::output::picture::screenshot_name(&self.clip().name, self.mixing.current_time())
    }

    /// [`Demo::report`], if the selection or the paused frame changed since the last one.
    pub fn take_report(&mut self) -> Option<String> {
        std::mem::take(&mut self.selection.report_due).then(|| self.report()).flatten()
    }

    /// The inspected vertex's candidates and blends this frame, if one is inspected.
    pub(super) fn inspection(&self) -> Option<Inspection> {
        let vertex = self.selection.vertex?;
        let shape = self.morph.morphed.shape(&self.model.skin);
        Some(selection::inspection(&self.model, &self.pose, shape, self.skinned.drawn_by(), vertex))
    }
}
