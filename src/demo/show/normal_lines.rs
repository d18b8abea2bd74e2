//! The normals layer: a short line from each skinned vertex along its skinned normal, or, for a
//! mesh lit with flat normals, from each triangle's centre along the triangle's own normal. Every
//! line is as long as a fixed fraction of the model's size ([`NORMAL_LENGTH`]), so the layer
//! reads the same on the article's arm and on a character a hundred units tall. No OpenGL here.

use glam::Vec3A;
use skinning::model::{Model, Pose};

/// How long each line is, as a fraction of the diagonal of the box the camera frames.
pub const NORMAL_LENGTH: f32 = 0.02;

/// How many lines the layer draws for `model`: one per vertex with a normal of its own, else one
/// per triangle.
pub fn line_count(model: &Model) -> usize {
    match model.skin.normals().len() {
        0 => model.triangles.len(),
        n => n,
    }
}

/// The layer's endpoints this frame, two per line, from the pose's skinned positions and normals
/// (or flat normals), each line `length` long. `out` is cleared and refilled; give it room for
/// `2 * line_count(model)` and nothing is allocated.
pub fn normal_lines(model: &Model, pose: &Pose, length: f32, out: &mut Vec<Vec3A>) {
    out.clear();
    if !pose.normals.is_empty() {
        for (&p, &n) in pose.skinned.iter().zip(&pose.normals) {
            out.extend([p, p + length * n]);
        }
    } else {
        for (&[a, b, c], &n) in model.triangles.iter().zip(&pose.face_normals) {
            let corner = |i: u32| pose.skinned[i as usize];
            let centre = (corner(a) + corner(b) + corner(c)) / 3.0;
            out.extend([centre, centre + length * n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_has_a_line_per_vertex_a_face_long_along_its_normal() {
        let model = skinning::scene::article().expect("the article's scene");
        let pose = Pose::new(&model);
        let mut out = Vec::with_capacity(2 * line_count(&model));
        normal_lines(&model, &pose, 0.05, &mut out);
        assert_eq!(out.len(), 26);
        // Vertex 0, (-0.1, 0.05), the top-left corner: its normal is halfway between up (the top
        // edge) and left (the end), so its line ends 0.05 / √2 up and left of it.
        let h = 0.05 / 2f32.sqrt();
        assert!(out[0].abs_diff_eq(Vec3A::new(-0.1, 0.05, 0.0), 1e-6));
        assert!(out[1].abs_diff_eq(Vec3A::new(-0.1 - h, 0.05 + h, 0.0), 1e-6), "{}", out[1]);
    }
}
