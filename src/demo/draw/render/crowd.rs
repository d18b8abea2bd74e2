//! `--crowd`'s other characters (`show/crowd.rs`), drawn as the skinned layer is: the same buffers
//! and the same programs. Where the CPU draws, each character's blended positions (and normals, for
//! the lit surface) go up in turn, and each is drawn moved to its place by the camera's matrix
//! (`view_projection * translation`): one draw per character. Where the GPU skins, the characters'
//! palettes go up together, each matrix moved to its character's place first, into one float
//! texture made at start-up for the whole crowd (`crowd_palettes.rs`): one upload a frame. One
//! instanced draw per mesh then skins them all, each instance by its own palette
//! (`shaders/skinning.vert`: `skin_matrix`), however many there are: [`Renderer::crowd_gpu_draws`]
//! counts the draws, and `--stats` says it.

use super::Renderer;
use crate::demo::draw::crowd_palettes::Palettes;
use crate::demo::show::scene::Scene;
use glam::Mat4;
use skinning_fast::crowd::Character;

impl Renderer {
    /// Every other character of the crowd, after the first character's layers, as they are drawn:
    /// lit or as lines, on the CPU, the GPU or both (the GPU's then over the CPU's, in its colour).
    pub(super) fn draw_crowd(&mut self, frame: &Scene) {
        let gl = &self.gl;
        let skinned = &frame.skinned;
        let lit = frame.surface.then_some(self.surface.as_ref()).flatten();
        if skinned.cpu.is_some() {
            for character in frame.crowd {
                let moved = frame.view_projection * Mat4::from_translation(character.place);
                // The light is at the eye, in the character's own numbers: the eye less its place.
                let eye = frame.eye - character.place;
                self.skinned.upload_positions(gl, &character.pose.skinned, &mut self.staging);
                match lit {
                    Some(surface) => surface.draw(gl, &character.pose.normals, &mut self.staging, moved, eye),
                    None => {
                        self.lines.start(gl, moved, frame.point_size);
                        self.skinned.draw(gl);
                    }
                }
            }
        }
        self.crowd_gpu_draws = 0;
        if let Some(gpu) = self.gpu.as_mut().filter(|_| skinned.gpu.is_some()) {
            gpu.upload_crowd(gl, frame.crowd.iter().flat_map(moved_palette));
            let crowd = Palettes::Crowd { characters: frame.crowd.len() };
            match lit.filter(|_| skinned.cpu.is_none()) {
                Some(surface) => {
                    gpu.draw_surface(gl, crowd, frame.view_projection, frame.eye, &surface.looks)
                }
                None => gpu.draw(gl, crowd, frame.view_projection, frame.point_size, skinned.gpu_color),
            }
            self.crowd_gpu_draws += 1;
        }
        // The layers after this one see through the camera alone.
        self.lines.start(gl, frame.view_projection, frame.point_size);
    }
}

/// A character's palette moved to its place: its skinned mesh stands there.
fn moved_palette(character: &Character) -> impl Iterator<Item = Mat4> + '_ {
    let place = Mat4::from_translation(character.place);
    character.pose.palette.iter().map(move |m| place * *m)
}
