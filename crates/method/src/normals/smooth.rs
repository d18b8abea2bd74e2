//! Smooth normals for a mesh that stores none, worked out once from its bind pose, as id Tech 4
//! (Doom 3's engine) works them out for an MD5 model.
//!
//! MD5 keeps no normals: Doom 3 derives them from the triangles (`R_DeriveTangents` in the GPL
//! source's `renderer/tr_trisurf.cpp`, the loop in `idSIMD_Generic::DeriveTangents`):
//!
//! 1. each triangle's own unit normal, `normalize((b - a) × (c - a))`, is added to each of its
//!    three corners. id normalises it first, so every triangle counts the same, whatever its area:
//!    "simple averaging", its comment says;
//! 2. vertices at exactly the same place (the same x, y and z) are one point of the surface cut in
//!    two along a texture seam: each has the texture coordinates of its own side. id adds their
//!    sums together and gives all of them the total (its `dupVerts`), so the seam does not show as
//!    a crease in the light;
//! 3. each sum is normalised.
//!
//! Here that is done once, on the bind pose, and the results become the skin's bind normals: the
//! rule of `normals.rs` then moves them with the skin like any file's normals. (id redoes the
//! three steps on the skinned mesh every frame; the two agree in the bind pose and differ by the
//! blend's squash elsewhere, the very difference between the rule and its shortcuts.)

use glam::Vec3;
use std::collections::HashMap;

/// One smooth normal per vertex of `positions`, from the counter-clockwise `triangles`, by id
/// Tech 4's steps above. A vertex on no triangle with an area gets zero: it has no surface to face.
pub fn smooth_normals(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for &[a, b, c] in triangles {
        let corner = |v: u32| positions[v as usize];
        let normal = (corner(b) - corner(a)).cross(corner(c) - corner(a)).normalize_or_zero();
        for v in [a, b, c] {
            sums[v as usize] += normal;
        }
    }
    // The vertices that share a place, by the bits of their coordinates: `0.0` and `-0.0` are
    // different bits but one place, so zeros are made positive first.
    let place = |p: Vec3| (p + Vec3::ZERO).to_array().map(f32::to_bits);
    let mut first_at: HashMap<[u32; 3], usize> = HashMap::with_capacity(positions.len());
    let mut shared = vec![0usize; positions.len()];
    for (v, &p) in positions.iter().enumerate() {
        shared[v] = *first_at.entry(place(p)).or_insert(v);
    }
    for v in 0..positions.len() {
        if shared[v] != v {
            let sum = sums[v];
            sums[shared[v]] += sum;
        }
    }
    (0..positions.len()).map(|v| sums[shared[v]].normalize_or_zero()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_of_a_cube_faces_out_along_its_diagonal() {
        // Three faces of a unit cube meeting at the origin, one triangle each, facing -x, -y, -z.
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let normals = smooth_normals(&p, &[[0, 2, 1], [0, 1, 3], [0, 3, 2]]);
        let out = -Vec3::ONE.normalize();
        assert!(normals[0].abs_diff_eq(out, 1e-6), "{}", normals[0]);
        // Vertex 1 (on x) is on the -y and -z faces: halfway between them.
        assert!(normals[1].abs_diff_eq(Vec3::new(0.0, -1.0, -1.0).normalize(), 1e-6), "{}", normals[1]);
    }

    #[test]
    fn every_triangle_counts_the_same_whatever_its_area() {
        // A big triangle facing +z and a small one facing +x share vertex 0: 45° between, not
        // leaning towards the big one as an area-weighted sum would.
        let p = [Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, 10.0, 0.0), Vec3::Y, Vec3::Z];
        let n = smooth_normals(&p, &[[0, 1, 2], [0, 3, 4]]);
        assert!(n[0].abs_diff_eq(Vec3::new(1.0, 0.0, 1.0).normalize(), 1e-6), "{}", n[0]);
    }

    #[test]
    fn vertices_at_one_place_across_a_seam_share_one_normal() {
        // Two faces of a roof meeting along x, the ridge's vertices doubled (a texture seam):
        // vertices 1 and 2 are the ridge on one side, 4 and 5 the same points on the other.
        let (ridge_a, ridge_b) = (Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0));
        let p = [
            Vec3::new(0.0, 0.0, 1.0),
            ridge_a,
            ridge_b,
            Vec3::new(0.0, 0.0, -1.0),
            ridge_a,
            -(-ridge_b), // the same bits
            Vec3::new(1.0, 0.0, -1.0),
        ];
        let seamed = smooth_normals(&p, &[[0, 2, 1], [3, 4, 5], [3, 5, 6]]);
        assert_eq!(seamed[1], seamed[4]);
        assert_eq!(seamed[2], seamed[5]);
        // Straight up at the ridge: the two slopes' normals (0, 1, 1)/√2 and (0, 1, -1)/√2 summed.
        assert!(seamed[1].abs_diff_eq(Vec3::Y, 1e-6), "{}", seamed[1]);
        // A vertex on no triangle gets zero.
        assert_eq!(smooth_normals(&[Vec3::ONE], &[]), [Vec3::ZERO]);
    }
}
