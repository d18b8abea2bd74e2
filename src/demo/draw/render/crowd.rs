//! `--crowd`'s other characters (`show/crowd.rs`), drawn as the skinned layer is: the same buffers,
//! the same programs, each character moved to its place by the camera's matrix
//! (`view_projection * translation`). Where the CPU draws, each character's blended positions (and
//! normals, for the lit surface) go up in turn and are drawn; where the GPU skins, each character's
//! palette goes up and the vertex shader blends the mesh already there. One draw per character
//! and mesh either way: the palettes are not gathered into one buffer for an instanced draw.

use super::Renderer;
use crate::demo::show::scene::Scene;
use glam::Mat4;
use skinning_method::frame::Palette;

impl Renderer {
    /// Every other character of the crowd, after the first character's layers, as they are drawn:
    /// lit or as lines, on the CPU, the GPU or both (the GPU's then over the CPU's, in its colour).
    pub(super) fn draw_crowd(&mut self, frame: &Scene) {
        let gl = &self.gl;
        let skinned = &frame.skinned;
        let lit = frame.surface.then_some(self.surface.as_ref()).flatten();
        for character in frame.crowd {
            let moved = frame.view_projection * Mat4::from_translation(character.place);
            // The light is at the eye, in the character's own numbers: the eye less its place.
            let eye = frame.eye - character.place;
            let pose = &character.pose;
            if skinned.cpu.is_some() {
                self.skinned.upload_positions(gl, &pose.skinned, &mut self.staging);
                match lit {
                    Some(surface) => surface.draw(gl, &pose.normals.vertex, &mut self.staging, moved, eye),
                    None => {
                        self.lines.start(gl, moved, frame.point_size);
                        self.skinned.draw(gl);
                    }
                }
            }
            let Some(gpu) = self.gpu.as_mut().filter(|_| skinned.gpu.is_some()) else { continue };
            let palette = Palette::Lbs(&pose.palette);
            match lit.filter(|_| skinned.cpu.is_none()) {
                Some(surface) => gpu.draw_surface(gl, palette, moved, eye, &surface.looks),
                None => gpu.draw(gl, palette, moved, frame.point_size, skinned.gpu_color),
            }
        }
        // The layers after this one see through the camera alone.
        self.lines.start(gl, frame.view_projection, frame.point_size);
    }
}
