//! The keys of several clips at once (chapter 11): `F` crossfades to the next clip, `Y` turns
//! phase sync on and off, `J` and `K` move weight between the clip that plays and the next one;
//! `C` and the number keys play one clip alone. What they do to the layers is `show/layers.rs`.

use super::Demo;

impl Demo {
    /// `C` or a number key: `clip` plays alone (layers laid over it stay).
    pub(super) fn play(&mut self, clip: usize) {
        self.clip = clip;
        self.mixing.play(clip);
    }

    /// `F`, `Y`, `J` or `K` (in either case); the error is why it cannot be done.
    pub(super) fn layer_key(&mut self, key: &str) -> Result<(), String> {
        match key.to_ascii_lowercase().as_str() {
            "f" => self.mixing.crossfade(self.clock.time),
            "y" => {
                self.mixing.toggle_sync();
                Ok(())
            }
            "j" => self.mixing.shift(false),
            _ => self.mixing.shift(true),
        }
    }
}
