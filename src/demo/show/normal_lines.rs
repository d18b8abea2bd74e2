//! The normals layer: a short line from each skinned vertex along its skinned normal, or, for a
//! mesh lit with flat normals, from each triangle's centre along the triangle's own normal.
//!
//! How long a line is decides whether the layer can be read. A fixed share of the model's size
//! suits a coarse mesh like the article's, but on a character of thousands of faces, some of them
//! tiny (a joint's ball), such lines reach far over their neighbours and the figure disappears
//! under a fuzz. So each line is scaled to the mesh's own edges where it stands: half the shortest
//! edge at its vertex (half its triangle's mean side, for a flat normal), in the rest pose, but no
//! longer than half the mesh's typical (median) such edge, nor [`NORMAL_LENGTH`] of the model's
//! size ([`line_lengths`]). A line then stays over its own faces, at any size and on any mesh.
//! No OpenGL here.

use glam::Vec3A;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::normals::face_normal;

/// The longest a line gets, as a fraction of the diagonal of the box the camera frames.
pub const NORMAL_LENGTH: f32 = 0.02;

/// How long each line of `model`'s layer is, in the order [`normal_lines`] draws them: half the
/// shortest edge at its vertex (triangles' sides, or the lines of an outline like the article's)
/// and at most half the median of those, or half its triangle's mean side; measured on the rest
/// pose skinned, so in the units the picture shows; at most [`NORMAL_LENGTH`] of `2 * radius`,
/// the diagonal of the framed box. (A fan's long spokes or a sliver's long side would otherwise
/// make a line that reaches across its neighbours.)
pub fn line_lengths(model: &Model, radius: f32) -> Vec<f32> {
    let longest = NORMAL_LENGTH * 2.0 * radius;
    let rest = Pose::new(model);
    let length = |[a, b]: [u32; 2]| rest.skinned[a as usize].distance(rest.skinned[b as usize]);
    let half = |sum: f32, count: f32| match sum / count / 2.0 {
        l if l.is_finite() && l > 0.0 => l.min(longest),
        _ => longest,
    };
    if model.skin.normals().is_empty() {
        return (model.triangles.iter())
            .map(|&[a, b, c]| half(length([a, b]) + length([b, c]) + length([c, a]), 3.0))
            .collect();
    }
    // Each edge counts for both its ends: the shortest edge at each vertex, capped by their median.
    let mut at = vec![f32::INFINITY; model.skin.len()];
    let sides = model.triangles.iter().flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]]);
    let outline = model.triangles.is_empty().then_some(&model.edges).into_iter().flatten().copied();
    for edge in sides.chain(outline) {
        let l = length(edge);
        for v in edge {
            at[v as usize] = at[v as usize].min(l);
        }
    }
    let mut sorted: Vec<f32> = at.iter().copied().filter(|l| l.is_finite()).collect();
    let middle = sorted.len() / 2;
    let median = match sorted.is_empty() {
        true => f32::INFINITY,
        false => *sorted.select_nth_unstable_by(middle, f32::total_cmp).1,
    };
    at.into_iter().map(|shortest| half(shortest.min(median), 1.0)).collect()
}

/// How many lines the layer draws for `model`: one per vertex with a normal of its own, else one
/// per triangle.
pub fn line_count(model: &Model) -> usize {
    match model.skin.normals().len() {
        0 => model.triangles.len(),
        n => n,
    }
}

/// The layer's endpoints this frame, two per line, from the pose's skinned positions and normals
/// (or flat normals), each line as long as `lengths` says ([`line_lengths`]). `out` is cleared
/// and refilled; give it room for `2 * line_count(model)` and nothing is allocated.
pub fn normal_lines(model: &Model, pose: &Pose, lengths: &[f32], out: &mut Vec<Vec3A>) {
    out.clear();
    if !pose.normals.is_empty() {
        for ((&p, &n), &length) in pose.skinned.iter().zip(&pose.normals).zip(lengths) {
            out.extend([p, p + length * n]);
        }
    } else {
        // Flat normals: each triangle's own, from its skinned corners (`normals.rs`).
        for (&[a, b, c], &length) in model.triangles.iter().zip(lengths) {
            let [a, b, c] = [a, b, c].map(|i| pose.skinned[i as usize]);
            let centre = (a + b + c) / 3.0;
            out.extend([centre, centre + length * face_normal(a, b, c)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_has_a_line_per_vertex_a_face_long_along_its_normal() {
        let model = skinning_method::scene::article().expect("the article's scene");
        let pose = Pose::new(&model);
        let mut out = Vec::with_capacity(2 * line_count(&model));
        normal_lines(&model, &pose, &[0.05; 13], &mut out);
        assert_eq!(out.len(), 26);
        // Vertex 0, (-0.1, 0.05), the top-left corner: its normal is halfway between up (the top
        // edge) and left (the end), so its line ends 0.05 / √2 up and left of it.
        let h = 0.05 / 2f32.sqrt();
        assert!(out[0].abs_diff_eq(Vec3A::new(-0.1, 0.05, 0.0), 1e-6));
        assert!(out[1].abs_diff_eq(Vec3A::new(-0.1 - h, 0.05 + h, 0.0), 1e-6), "{}", out[1]);
    }

    #[test]
    fn a_line_is_half_the_shortest_edge_at_its_vertex_within_two_caps() {
        use glam::{Mat4, Vec3};
        use skinning_method::skeleton::SkeletonBuilder;
        use skinning_method::skin::{Influence, Joint, Skin};
        let v = |x, y| Vec3::new(x, y, 0.0);
        // Big right triangles (legs 4) around corners 0, 1, 2, 5; a small one (legs 0.2) on
        // corner 0 with corners 3, 4; and a large one (legs 10) on corner 5 with corners 6, 7.
        let corners = [
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(0.0, 4.0),
            v(-0.2, 0.0),
            v(0.0, -0.2),
            v(4.0, 4.0),
            v(14.0, 4.0),
            v(4.0, 14.0),
        ];
        let triangles = vec![[0, 1, 2], [0, 3, 4], [1, 5, 2], [5, 6, 7]];
        let mut b = SkeletonBuilder::new();
        let root = b.bone("root", Vec3::ZERO);
        let one = [Influence { joint: 0, weight: 1.0 }];
        let table: Vec<(Vec3, &[Influence])> = corners.iter().map(|&p| (p, &one[..])).collect();
        let mut skin =
            Skin::from_table(vec![Joint { bone: root, offset: Mat4::IDENTITY }], &table).expect("a skin");
        skin.set_normals(&[Vec3::Z; 8]).expect("normals");
        let skeleton = b.build().expect("one bone");
        let model = Model::new(skeleton, skin, Vec::new())
            .and_then(|m| m.with_triangles(triangles))
            .expect("a model");
        // The shortest edge at each corner: 0.2, 4, 4, 0.2, 0.2, 4, 10, 10; their median (the
        // 5th of 8 in order) is 4. Half of each, no more than half the median: corners 6 and 7
        // would get 5 from their legs of 10 and get 2.
        let expected = [0.1, 2.0, 2.0, 0.1, 0.1, 2.0, 2.0, 2.0];
        let lengths = line_lengths(&model, 1000.0);
        assert!(lengths.iter().zip(expected).all(|(got, want)| (got - want).abs() < 1e-5), "{lengths:?}");
        // A small model's cap: 2% of the diagonal, 2 * radius.
        let capped = line_lengths(&model, 10.0);
        assert!((capped[1] - 0.4).abs() < 1e-6 && (capped[0] - 0.1).abs() < 1e-6, "{capped:?}");
    }
}
