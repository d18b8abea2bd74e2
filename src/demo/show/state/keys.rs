//! What each key does to the [`Demo`] (the list the program prints on `H` is `cli/help.rs`'s).

use super::{Demo, NO_SURFACE, Reply};
use crate::demo::show::skinned;

impl Demo {
    /// Handles a key, given as the character it types (" " for Space): its family's function
    /// below does what it asks; then, unless it was refused or asks for something outside the demo,
    /// the frame is made again.
    pub fn key(&mut self, key: &str) -> Reply {
        let before = (self.clip, self.clock.time, self.clock.paused);
        let key = key.to_lowercase();
        let key = key.as_str();
        let reply = match key {
            "r" => {
                self.reset();
                Reply::Changed
            }
            "p" => return Reply::Screenshot,
            "h" => return Reply::Help,
            _ => (self.clock_key(key))
                .or_else(|| self.clip_key(key))
                .or_else(|| self.view_key(key))
                .or_else(|| self.blend_key(key))
                .or_else(|| self.pose_key(key))
                .unwrap_or(Reply::Nothing),
        };
        if !matches!(reply, Reply::Changed | Reply::Said(_)) {
            return reply;
        }
        if self.clip != before.0 {
            self.reframe();
        }
        self.update();
        // Paused on a new frame (just paused, a step, a scrub, another clip, a reset): print its numbers.
        let new_frame = before != (self.clip, self.clock.time, true) || key == "r";
        if self.clock.paused && new_frame && self.selection.vertex.is_some() {
            self.selection.report_due = true;
        }
        reply
    }

    /// The clock: pause, step, scrub, faster, slower. None: not one of its keys.
    fn clock_key(&mut self, key: &str) -> Option<Reply> {
        let clock = &mut self.clock;
        match key {
            " " => clock.paused = !clock.paused,
            "." => clock.step(true),
            "," => clock.step(false),
            "]" => clock.scrub(true),
            "[" => clock.scrub(false),
            "+" | "=" => clock.faster(),
            "-" | "_" => clock.slower(),
            _ => return None,
        }
        Some(Reply::Changed)
    }

    /// The clips: one by its number, the next (`C`), and several at once (`F`, `Y`, `J`, `K`).
    fn clip_key(&mut self, key: &str) -> Option<Reply> {
        match key {
            "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => {
                let wanted = key.parse::<usize>().unwrap_or(1) - 1;
                if wanted >= self.clips.len() {
                    let n = self.clips.len();
                    return Some(Reply::Refused(format!(
                        "there is no clip {key}: this model has {n} (C steps through them)"
                    )));
                }
                self.play(wanted);
            }
            "c" => self.play((self.clip + 1) % self.clips.len()),
            "f" | "y" | "j" | "k" => return Some(done(self.layer_key(key))),
            _ => return None,
        }
        Some(Reply::Changed)
    }

    /// What the picture shows: the layers, the lit surface, the normals, the weight view, the
    /// inspected vertex, the bones' names.
    fn view_key(&mut self, key: &str) -> Option<Reply> {
        let view = &mut self.view;
        match key {
            "b" => view.show_bind = !view.show_bind,
            "m" => view.show_skinned = !view.show_skinned,
            "s" => view.show_bones = !view.show_bones,
            "l" => match self.model.triangles.is_empty() {
                true => return Some(Reply::Refused(NO_SURFACE.into())),
                false => view.show_surface = !view.show_surface,
            },
            "o" => view.show_normals = !view.show_normals,
            "w" => {
                let said = view.next_weight_bone(&self.model);
                self.colors_dirty = true;
                return Some(Reply::Said(said));
            }
            "v" => self.selection.next(self.model.skin.len()),
            "n" => view.show_names = !view.show_names,
            _ => return None,
        }
        Some(Reply::Changed)
    }

    /// How the skinned layer is blended: where (`G`: CPU, GPU or both) and by which method (`D`).
    fn blend_key(&mut self, key: &str) -> Option<Reply> {
        match key {
            "g" => {
                let refused = self.skinned.gpu_refused.as_deref();
                match skinned::next_skinning(self.skinned.skinning, &self.model, refused) {
                    Ok(next) => self.skinned.skinning = next,
                    Err(why) => return Some(Reply::Refused(why)),
                }
            }
            "d" => {
                let time = self.clips[self.clip].wrap(self.clock.time) as f64;
                match skinned::next_method(self.skinned.method, &self.pose, &self.model, time) {
                    Ok(next) => self.skinned.method = next,
                    Err(why) => return Some(Reply::Refused(why)),
                }
                self.colors_dirty = true;
            }
            _ => return None,
        }
        Some(Reply::Changed)
    }

    /// The pose beyond the clip: reach mode and its solver (`E`, `Q`), and the held morph weights
    /// (`T` picks a target, `U` and `I` move its weight).
    fn pose_key(&mut self, key: &str) -> Option<Reply> {
        match key {
            "e" => self.reach.on = !self.reach.on,
            "q" => return Some(done(self.reach.switch_solver(&self.model))),
            "t" => return Some(done(self.morph.next())),
            "u" | "i" => {
                if let Err(why) = self.morph.change(&self.pose.morph.weights, key == "i") {
                    return Some(Reply::Refused(why));
                }
                // A new shape is a new frame for the inspector too.
                self.selection.report_due |= self.clock.paused && self.selection.vertex.is_some();
            }
            _ => return None,
        }
        Some(Reply::Changed)
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

/// A key's answer when what it asked for may be refused: done, or the one-line reason why not.
fn done(result: Result<(), String>) -> Reply {
    match result {
        Ok(()) => Reply::Changed,
        Err(why) => Reply::Refused(why),
    }
}
