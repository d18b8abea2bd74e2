//! `--crowd`'s other characters (`show/crowd.rs`), drawn as the skinned layer is: the same buffers
//! and the same programs. Where the CPU draws, each character's blended positions (and normals, for
//! the lit surface) go up in turn, and each is drawn moved to its place by the camera's matrix
//! (`view_projection * translation`): one draw per character. Where the GPU skins, the characters'
//! palettes go up together, each matrix moved to its character's place first, into the palette's
//! uniform buffer, as many characters as it holds (`MAX_GPU_JOINTS` matrices: ten Foxes of 24
//! joints). One instanced draw then skins them all, each instance by its own palette
//! (`shaders/skinning.vert`: `joint`): a draw per mesh for each bufferful. Gathering every
//! palette in one texture would make it one draw per mesh for the whole crowd; that is not done.

use super::Renderer;
use crate::demo::model::gpu_fit::MAX_GPU_JOINTS;
use crate::demo::show::scene::Scene;
use glam::Mat4;
use skinning_method::lbs_or_dqs::Palette;

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
        if let Some(gpu) = self.gpu.as_mut().filter(|_| skinned.gpu.is_some()) {
            let joints = frame.crowd.first().map_or(1, |c| c.pose.palette.len()).max(1);
            for group in frame.crowd.chunks((MAX_GPU_JOINTS / joints).max(1)) {
                // Each character's palette moved to its place: its skinned mesh stands there.
                self.crowd_palettes.clear();
                for c in group {
                    let place = Mat4::from_translation(c.place);
                    self.crowd_palettes.extend(c.pose.palette.iter().map(|m| place * *m));
                }
                let palette = Palette::Lbs(&self.crowd_palettes);
                match lit.filter(|_| skinned.cpu.is_none()) {
                    Some(surface) => {
                        gpu.draw_surface(gl, palette, frame.view_projection, frame.eye, &surface.looks)
                    }
                    None => gpu.draw(gl, palette, frame.view_projection, frame.point_size, skinned.gpu_color),
                }
            }
        }
        // The layers after this one see through the camera alone.
        self.lines.start(gl, frame.view_projection, frame.point_size);
    }
}
