//! A primitive's indices become the picture's edges and the model's faces (spec, "Meshes").
//!
//! A primitive lists its vertices by index, or uses them in order when it has no `indices`, and
//! its `mode` says how the list is read: points; lines (each two a line), a line strip (each next
//! one continues it) or a line loop (which comes back to the first); triangles (each three a
//! triangle), a strip (each next one makes a triangle with the two before) or a fan (each next two
//! make one with the first). The picture draws every line and every triangle's three sides; a
//! triangle is also kept as a face, counter-clockwise seen from the front, as glTF orders them.

use super::accessors::read_indices;
use super::error::ImportError;
use gltf::mesh::Mode;

/// The primitive's lines, as pairs of the skin's vertex indices (its own plus `base`), added to
/// `edges`, and its triangles added to `faces`; `mesh` names the primitive in messages.
pub fn edges(
    primitive: &gltf::Primitive,
    buffers: &[Vec<u8>],
    mesh: &str,
    base: usize,
    vertices: usize,
    edges: &mut Vec<[u32; 2]>,
    faces: &mut Vec<[u32; 3]>,
) -> Result<(), ImportError> {
    // Without indices, the vertices are used in order (spec, "Meshes").
    let indices: Vec<u32> = match primitive.indices() {
        Some(accessor) => {
            let usage = format!("indices of mesh {}", mesh);
            read_indices::<1>(&accessor, buffers, &usage)?.into_iter().map(|[i]| i).collect()
        }
        None => (0..vertices as u32).collect(),
    };
    if let Some(i) = indices.iter().find(|&&i| i as usize >= vertices) {
        let problem = format!("index {i} is past its last vertex ({})", vertices - 1);
        return Err(ImportError::Mesh { mesh: mesh.to_string(), problem });
    }
    let too_many = || ImportError::Mesh { mesh: mesh.to_string(), problem: "more than 2^32 vertices".into() };
    let base = u32::try_from(base + vertices).map_err(|_| too_many())? - vertices as u32;
    // Room for what this primitive adds, made once (growing by doubling would leave up to as much
    // again unused: a model of a million vertices has six million edges before the duplicates go).
    let n = indices.len();
    let (lines, triangles) = match primitive.mode() {
        Mode::Points => (0, 0),
        Mode::Lines => (n / 2, 0),
        Mode::LineStrip | Mode::LineLoop => (n, 0),
        Mode::Triangles => (n, n / 3),
        Mode::TriangleStrip | Mode::TriangleFan => (3 * n, n),
    };
    edges.reserve(lines);
    faces.reserve(triangles);
    let mut line = |a: u32, b: u32| {
        if a != b {
            edges.push([base + a.min(b), base + a.max(b)]);
        }
    };
    // A triangle's three edges, and the triangle itself unless two corners are one vertex.
    let mut triangle = |a: u32, b: u32, c: u32| {
        line(a, b);
        line(b, c);
        line(c, a);
        if a != b && b != c && c != a {
            faces.push([base + a, base + b, base + c]);
        }
    };
    match primitive.mode() {
        Mode::Points => {}
        Mode::Lines => indices.chunks_exact(2).for_each(|l| line(l[0], l[1])),
        Mode::LineStrip => indices.windows(2).for_each(|l| line(l[0], l[1])),
        Mode::LineLoop => {
            indices.windows(2).for_each(|l| line(l[0], l[1]));
            if n > 2 {
                line(indices[n - 1], indices[0]);
            }
        }
        Mode::Triangles => indices.chunks_exact(3).for_each(|t| triangle(t[0], t[1], t[2])),
        // Every other triangle of a strip is turned the other way round; swap two corners back.
        Mode::TriangleStrip => indices.windows(3).enumerate().for_each(|(i, t)| match i % 2 {
            0 => triangle(t[0], t[1], t[2]),
            _ => triangle(t[1], t[0], t[2]),
        }),
        Mode::TriangleFan => indices[1.min(n)..].windows(2).for_each(|t| triangle(indices[0], t[0], t[1])),
    }
    Ok(())
}
