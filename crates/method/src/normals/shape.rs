//! Normals from the mesh's own shape, where the file gives none.
//!
//! **Flat normals.** A glTF mesh without `NORMAL` must be lit with flat normals (spec, "Meshes"):
//! each triangle faces one way, `normalize((b - a) × (c - a))` for its corners a, b, c taken
//! counter-clockwise. Computed from the *skinned* corners every frame, they need no skinning at
//! all: the blend has already moved the corners, and the cross product of two moved edges is the
//! moved normal (`normals.rs` says why that is the inverse-transpose rule).
//!
//! (The article's outline, which is no surface, has normals of its own, worked out once from its
//! bind mesh: `scene.rs`: `outline_normals`.)

use glam::Vec3A;

/// Each triangle's own unit normal, from the positions of its corners (counter-clockwise seen
/// from the front): zero for a triangle with no area. Allocates nothing.
pub fn face_normals(positions: &[Vec3A], triangles: &[[u32; 3]], out: &mut [Vec3A]) {
    assert_eq!(triangles.len(), out.len(), "one normal per triangle");
    for (&[a, b, c], out) in triangles.iter().zip(out.iter_mut()) {
        *out = face_normal(positions[a as usize], positions[b as usize], positions[c as usize]);
    }
}

/// One triangle's own unit normal, from its corners `a`, `b`, `c` (counter-clockwise seen from the
/// front): zero for a triangle with no area.
pub fn face_normal(a: Vec3A, b: Vec3A, c: Vec3A) -> Vec3A {
    (b - a).cross(c - a).normalize_or_zero()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_faces_the_side_it_is_counter_clockwise_from() {
        let corners =
            [Vec3A::ZERO, Vec3A::new(2.0, 0.0, 0.0), Vec3A::new(0.0, 3.0, 0.0), Vec3A::new(5.0, 5.0, 5.0)];
        let mut out = [Vec3A::ZERO; 3];
        // Counter-clockwise seen from +z, the other way round, and one with no area.
        face_normals(&corners, &[[0, 1, 2], [0, 2, 1], [0, 1, 1]], &mut out);
        assert_eq!(out, [Vec3A::Z, -Vec3A::Z, Vec3A::ZERO]);
    }
}
