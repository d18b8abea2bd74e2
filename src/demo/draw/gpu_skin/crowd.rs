//! A crowd's palettes for the skinning programs: the texture made once for the crowd, and filled
//! every frame (`crowd_palettes.rs`), before one draw per mesh skins every character.

use super::super::crowd_palettes::CrowdPalettes;
use super::super::gl::GlError;
use super::GpuSkin;
use glam::Mat4;

impl GpuSkin {
    /// Makes the texture for a crowd of `characters` past the first, once, at start-up: the
    /// caller checked it fits the driver (`fits_crowd`). Without others, nothing is made.
    pub fn make_room_for_crowd(&mut self, gl: &glow::Context, characters: usize) -> Result<(), GlError> {
        if characters > 0 {
            self.crowd = Some(CrowdPalettes::new(gl, characters, self.palette_joints)?);
        }
        Ok(())
    }

    /// This frame's palettes of the crowd's characters past the first, `matrices` one character's
    /// after another's, into their texture: then `Palettes::Crowd` draws them all at once.
    pub fn upload_crowd(&mut self, gl: &glow::Context, matrices: impl Iterator<Item = Mat4>) {
        if let Some(crowd) = &mut self.crowd {
            crowd.upload(gl, matrices);
        }
    }
}
