//! Normals from the mesh's own shape, where the file gives none.
//!
//! **Flat normals.** A glTF mesh without `NORMAL` must be lit with flat normals (spec, "Meshes"):
//! each triangle faces one way, `normalize((b - a) × (c - a))` for its corners a, b, c taken
//! counter-clockwise. Computed from the *skinned* corners every frame, they need no skinning at
//! all: the blend has already moved the corners, and the cross product of two moved edges is the
//! moved normal (`normals.rs` says why that is the inverse-transpose rule).
//!
//! **The article's outline.** The article's mesh is a closed outline in the z = 0 plane, not a
//! surface. Its normals lie in that plane: at each vertex, perpendicular to the outline, pointing
//! out, halfway between the two edges that meet there. They are worked out once, from the bind
//! mesh, and become the skin's bind normals, so the toy's normals are skinned by the same rule as
//! a character's.

use glam::{Vec3, Vec3A};

/// Each triangle's own unit normal, from the positions of its corners (counter-clockwise seen
/// from the front): zero for a triangle with no area. Allocates nothing.
pub fn face_normals(positions: &[Vec3A], triangles: &[[u32; 3]], out: &mut [Vec3A]) {
    assert_eq!(triangles.len(), out.len(), "one normal per triangle");
    for (&[a, b, c], out) in triangles.iter().zip(out.iter_mut()) {
        let a = positions[a as usize];
        *out = (positions[b as usize] - a).cross(positions[c as usize] - a).normalize_or_zero();
    }
}

/// The in-plane normals of a closed outline in the z = 0 plane, one per point, the outline going
/// from each point to the next and from the last back to the first.
///
/// An edge from p to q, walked with the inside on its right (clockwise), has its outside on the
/// left: `(-(q - p).y, (q - p).x)` turned a quarter to the left. The outline's signed area says
/// which way it is walked (shoelace formula: negative for clockwise); for a counter-clockwise one
/// the outside is on the right. Each point's normal is the sum of its two edges' unit normals,
/// normalised: perpendicular to the outline where it is straight, halfway round at a corner.
pub fn outline_normals(points: &[Vec3]) -> Vec<Vec3> {
    let n = points.len();
    let edge = |i: usize| points[(i + 1) % n] - points[i];
    let twice_area: f32 =
        (0..n).map(|i| points[i].x * points[(i + 1) % n].y - points[(i + 1) % n].x * points[i].y).sum();
    let outside = if twice_area < 0.0 { 1.0 } else { -1.0 };
    let normal_of_edge = |i: usize| {
        let e = edge(i).normalize_or_zero();
        outside * Vec3::new(-e.y, e.x, 0.0)
    };
    (0..n)
        .map(|i| (normal_of_edge((i + n - 1) % n) + normal_of_edge(i)).normalize_or(normal_of_edge(i)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_walked_either_way_has_normals_pointing_out_at_45_degrees() {
        let square = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // Corner (0, 0) faces (-1, -1)/√2, corner (1, 0) faces (1, -1)/√2, and so on.
        let expected =
            [Vec3::new(-h, -h, 0.0), Vec3::new(h, -h, 0.0), Vec3::new(h, h, 0.0), Vec3::new(-h, h, 0.0)];
        for (got, want) in outline_normals(&square).iter().zip(expected) {
            assert!(got.abs_diff_eq(want, 1e-6), "{got} != {want}");
        }
        let mut backwards = square;
        backwards.reverse();
        let mut expected_backwards = expected;
        expected_backwards.reverse();
        for (got, want) in outline_normals(&backwards).iter().zip(expected_backwards) {
            assert!(got.abs_diff_eq(want, 1e-6), "clockwise: {got} != {want}");
        }
    }

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
