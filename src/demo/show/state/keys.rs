//! What each key does to the [`Demo`] (the list the program prints on `H` is `cli/help.rs`'s).

use super::{Demo, NO_SURFACE, Reply};
use crate::demo::show::skinned;

impl Demo {
    /// Handles a key, given as the character it types (" " for Space).
    pub fn key(&mut self, key: &str) -> Reply {
        let before = (self.clip, self.clock.time, self.clock.paused);
        let mut said = None;
        let clock = &mut self.clock;
        match key.to_lowercase().as_str() {
            " " => clock.paused = !clock.paused,
            "." => clock.step(true),
            "," => clock.step(false),
            "]" => clock.scrub(true),
            "[" => clock.scrub(false),
            "+" | "=" => clock.faster(),
            "-" | "_" => clock.slower(),
            "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => {
                let wanted = key.parse::<usize>().unwrap_or(1) - 1;
                if wanted >= self.clips.len() {
                    let n = self.clips.len();
                    return Reply::Refused(format!(
                        "there is no clip {key}: this model has {n} (C steps through them)"
                    ));
                }
                self.play(wanted);
            }
            "c" => self.play((self.clip + 1) % self.clips.len()),
            "f" | "y" | "j" | "k" => {
                if let Err(why) = self.layer_key(key) {
                    return Reply::Refused(why);
                }
            }
            "b" => self.view.show_bind = !self.view.show_bind,
            "m" => self.view.show_skinned = !self.view.show_skinned,
            "s" => self.view.show_bones = !self.view.show_bones,
            "l" => match self.model.triangles.is_empty() {
                true => return Reply::Refused(NO_SURFACE.into()),
                false => self.view.show_surface = !self.view.show_surface,
            },
            "o" => self.view.show_normals = !self.view.show_normals,
            "w" => {
                said = Some(self.view.next_weight_bone(&self.model));
                self.colors_dirty = true;
            }
            "g" => match skinned::next_skinning(
                self.skinned.skinning,
                &self.model,
                self.skinned.gpu_refused.as_deref(),
            ) {
                Ok(next) => self.skinned.skinning = next,
                Err(why) => return Reply::Refused(why),
            },
            "d" => {
                let time = self.clips[self.clip].wrap(self.clock.time) as f64;
                match skinned::next_method(self.skinned.method, &mut self.pose, &self.model, time) {
                    Ok(next) => self.skinned.method = next,
                    Err(why) => return Reply::Refused(why),
                }
                self.colors_dirty = true;
            }
            "e" => self.reach.on = !self.reach.on,
            "q" => {
                if let Err(why) = self.reach.switch_solver(&self.model) {
                    return Reply::Refused(why);
                }
            }
            "v" => self.selection.next(self.model.skin.len()),
            "t" => {
                if let Err(why) = self.morph.next() {
                    return Reply::Refused(why);
                }
            }
            "u" | "i" => {
                if let Err(why) = self.morph.change(&self.pose.morph.weights, key.eq_ignore_ascii_case("i")) {
                    return Reply::Refused(why);
                }
                // A new shape is a new frame for the inspector too.
                self.selection.report_due |= self.clock.paused && self.selection.vertex.is_some();
            }
            "n" => self.view.show_names = !self.view.show_names,
            "r" => self.reset(),
            "p" => return Reply::Screenshot,
            "h" => return Reply::Help,
            _ => return Reply::Nothing,
        }
        if self.clip != before.0 {
            self.reframe();
        }
        self.update();
        // Paused on a new frame (just paused, a step, a scrub, another clip, a reset): print its numbers.
        let new_frame = before != (self.clip, self.clock.time, true) || key.eq_ignore_ascii_case("r");
        if self.clock.paused && new_frame && self.selection.vertex.is_some() {
            self.selection.report_due = true;
        }
        said.map_or(Reply::Changed, Reply::Said)
    }

    pub(super) fn reset(&mut self) {
        self.clock.reset();
        self.view.camera = self.view.home;
        self.bend = None;
        self.pose.bend.fill(glam::Quat::IDENTITY);
        self.morph.reset();
        self.reach.reset(&self.model);
        self.mixing.end_fade();
    }
}
