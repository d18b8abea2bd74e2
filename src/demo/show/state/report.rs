//! What the vertex inspector prints to the terminal: the inspected vertex's blend this frame, term
//! by term, and for an MD5 model its stored weights beside `offset · bind`.

use super::Demo;
use skinning::inspect::Report;
use skinning::md5_import::WeightTable;

impl Demo {
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
