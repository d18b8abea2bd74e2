//! The vertex inspector's numbers as the terminal prints them (chapter 5): the frame's clip and
//! time, the blend term by term, and an MD5 model's stored weights beside it.

use super::Demo;
use crate::demo::show::selection;
use skinning::inspect::{Inspection, Report};
use skinning::md5_import::WeightTable;

impl Demo {
    /// The inspected vertex's candidates and blends this frame, if one is inspected.
    pub(super) fn inspection(&self) -> Option<Inspection> {
        let vertex = self.selection.vertex?;
        Some(selection::inspection(&self.model, &self.pose, self.skinned.method, vertex))
    }

    /// The inspector's numbers for this frame, as the terminal shows them; None with no vertex.
    pub fn report(&self) -> Option<String> {
        let inspection = self.inspection()?;
        let (method, skinning) = (self.skinned.method.name(), self.skinned.skinning.name());
        let report = Report { inspection: &inspection, model: &self.model };
        // The clip's own time, as the mixer had it (in step, not the clock's time wrapped).
        let time = self.mixing.current_time();
        let name = &self.clip_names[self.clip];
        let mut text = format!("inspect: clip {name} at t {time:.3} s, {method} on {skinning}\n{report}");
        if let Some(stored) = &self.stored {
            let (model, vertex) = (&self.model, inspection.vertex);
            text.push_str(&WeightTable { model, stored, vertex }.to_string());
        }
        Some(text)
    }

    /// [`Demo::report`], if the selection or the paused frame changed since the last one.
    pub fn take_report(&mut self) -> Option<String> {
        std::mem::take(&mut self.selection.report_due).then(|| self.report()).flatten()
    }
}
