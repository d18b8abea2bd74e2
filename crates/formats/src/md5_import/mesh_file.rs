//! The `.md5mesh` file, read as it is written: the joints of the bind pose, then each mesh's
//! vertices, triangles and weights (Doom 3's order, which every MD5 file keeps).
//!
//! ```text
//! MD5Version 10
//! commandline "..."
//! numJoints 33
//! numMeshes 6
//! joints {
//!     "origin" -1 ( 0 0.016 -0.006 ) ( 0.707 0 0.707 )   // name parent ( position ) ( orientation )
//! }
//! mesh {
//!     shader "body"
//!     numverts 494
//!     vert 0 ( 0.39 0.51 ) 0 1         // index ( u v ) first-weight weight-count
//!     numtris 628
//!     tri 0 0 2 1                      // index v0 v1 v2
//!     numweights 879
//!     weight 0 5 1.0 ( 6.17 8.10 -0.02 )   // index joint bias ( position in the joint's space )
//! }
//! ```
//!
//! A joint's position and orientation are in **object space** (the whole model's), and a parent
//! comes before its children. An orientation is a unit quaternion stored as x y z only:
//! `w = -sqrt(1 - x² - y² - z²)` ([`unit_quaternion`]). Every rule the format makes is checked
//! where it is read, so what this file returns is consistent: each parent is an earlier joint,
//! each weight's joint exists, each vertex's weights lie inside its mesh's list, each triangle's
//! corners are vertices of its mesh. Each vertex's texture coordinates `( s t )` are kept as they
//! are: 0 to 1 across and down the picture, as glTF's are.

use super::error::{Md5Error, quote};
use super::tokens::{Token, Tokens};
use glam::{DVec3, Quat, Vec3};

/// The fewest bytes one entry of each kind can take, the shortest form of each written out; a
/// count is checked against them before its entries are read (`Tokens::count`).
const JOINT_BYTES: usize = "\"\"0(0 0 0)(0 0 0)".len();
const MESH_BYTES: usize = "mesh{numverts 0 numtris 0 numweights 0}".len();
const VERT_BYTES: usize = "vert 0(0 0)0 1".len();
const TRI_BYTES: usize = "tri 0 0 0 0".len();
const WEIGHT_BYTES: usize = "weight 0 0 1(0 0 0)".len();

/// The whole `.md5mesh`.
pub struct MeshFile<'a> {
    /// What wrote it, if it says (`commandline "..."`).
    pub commandline: Option<&'a str>,
    pub joints: Vec<FileJoint<'a>>,
    pub meshes: Vec<FileMesh<'a>>,
}

/// A joint in the bind pose, in object space.
#[derive(Clone, Copy, Debug)]
pub struct FileJoint<'a> {
    pub name: &'a str,
    /// An earlier joint, or None for a root.
    pub parent: Option<usize>,
    pub position: Vec3,
    pub orientation: Quat,
}

/// One `mesh { }` block.
pub struct FileMesh<'a> {
    pub shader: &'a str,
    /// Each vertex's run of weights: `first..first + count` of `weights`.
    pub verts: Vec<std::ops::Range<usize>>,
    /// Each vertex's texture coordinates `( s t )`.
    pub texcoords: Vec<[f32; 2]>,
    /// Corners as the file lists them (Doom 3's winding: clockwise seen from the front).
    pub tris: Vec<[u32; 3]>,
    pub weights: Vec<FileWeight>,
}

/// A weight: a joint, how much it counts, and the vertex's position in that joint's space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileWeight {
    pub joint: usize,
    pub bias: f32,
    pub position: Vec3,
}

/// Reads and checks an `.md5mesh`'s text.
pub fn parse(text: &str) -> Result<MeshFile<'_>, Md5Error> {
    let mut t = Tokens::new(text);
    let commandline = version(&mut t, ".md5mesh")?;
    let joint_count = t.count("numJoints", JOINT_BYTES)?;
    if joint_count == 0 {
        return Err(t.error("numJoints is 0: a skinned model needs at least one joint".into()));
    }
    let mesh_count = t.count("numMeshes", MESH_BYTES)?;
    if mesh_count == 0 {
        return Err(t.error("numMeshes is 0: the file has no mesh to show".into()));
    }

    t.keyword("joints")?;
    t.mark(b'{')?;
    let mut joints = Vec::with_capacity(joint_count);
    for index in 0..joint_count {
        joints.push(joint(&mut t, index)?);
    }
    t.mark(b'}')?;

    let mut meshes = Vec::with_capacity(mesh_count);
    for m in 0..mesh_count {
        meshes.push(mesh(&mut t, m, joint_count)?);
    }
    t.finish()?;
    Ok(MeshFile { commandline, joints, meshes })
}

/// `MD5Version 10` first, then perhaps `commandline "..."` (what the exporter was run with), whose
/// text is returned.
pub fn version<'a>(t: &mut Tokens<'a>, kind: &str) -> Result<Option<&'a str>, Md5Error> {
    match t.next()? {
        None => return Err(t.error(format!("the file is empty; a {kind} file starts with MD5Version 10"))),
        Some(Token::Word("MD5Version")) => {}
        Some(_) => {
            return Err(t.error(format!("not an MD5 file: a {kind} file starts with MD5Version 10")));
        }
    }
    let version = t.integer("the version")?;
    if version != 10 {
        return Err(t.error(format!("MD5Version {version}: this program reads version 10 (Doom 3's)")));
    }
    if t.peek()? == Some(Token::Word("commandline")) {
        t.keyword("commandline")?;
        return t.quoted("the command line").map(Some);
    }
    Ok(None)
}

/// `"name" parent ( x y z ) ( qx qy qz )`.
fn joint<'a>(t: &mut Tokens<'a>, index: usize) -> Result<FileJoint<'a>, Md5Error> {
    let name = t.quoted("a joint's name")?;
    let parent = t.integer("a joint's parent")?;
    // A parent comes first, so walking the joints in order meets every parent before its children.
    let parent = match parent {
        -1 => None,
        p if (0..index as i64).contains(&p) => Some(p as usize),
        p => {
            return Err(t.error(format!(
                "joint {index} {}'s parent is {p}; it must be an earlier joint (0 to {}) or -1 for a root",
                quote(name),
                index as i64 - 1
            )));
        }
    };
    let position = t.triple("a joint's position")?;
    let xyz = t.triple64("a joint's orientation")?;
    let orientation = unit_quaternion(xyz).map_err(|problem| t.error(format!("joint {index}: {problem}")))?;
    Ok(FileJoint { name, parent, position, orientation })
}

/// The unit quaternion whose x, y, z the file stores: `w = -sqrt(1 - x² - y² - z²)`, negative by
/// id's convention (q and -q are the same turn), 0 where rounding makes the root's argument
/// slightly negative. A vector clearly longer than 1 is no unit quaternion's. In f64: near a half
/// turn w is small, and `1 - x² - y² - z²` in 32-bit floats would lose most of its digits.
pub fn unit_quaternion(xyz: DVec3) -> Result<Quat, String> {
    let DVec3 { x, y, z } = xyz;
    let left = 1.0 - (x * x + y * y + z * z);
    if left < -1e-3 {
        return Err(format!(
            "the orientation ({x} {y} {z}) is longer than 1, so it is not part of a unit quaternion"
        ));
    }
    let w = -left.max(0.0).sqrt();
    let length = (x * x + y * y + z * z + w * w).sqrt();
    Ok(Quat::from_xyzw((x / length) as f32, (y / length) as f32, (z / length) as f32, (w / length) as f32))
}

/// One `mesh { ... }` block, `m` in file order.
fn mesh<'a>(t: &mut Tokens<'a>, m: usize, joint_count: usize) -> Result<FileMesh<'a>, Md5Error> {
    t.keyword("mesh")?;
    t.mark(b'{')?;
    let shader = match t.peek()? {
        Some(Token::Word("shader")) => {
            t.keyword("shader")?;
            t.quoted("the shader")?
        }
        _ => "",
    };

    let vert_count = t.count("numverts", VERT_BYTES)?;
    let mut verts = Vec::with_capacity(vert_count);
    let mut texcoords = Vec::with_capacity(vert_count);
    let mut vert_lines = Vec::with_capacity(vert_count);
    for v in 0..vert_count {
        t.numbered("vert", v)?;
        t.mark(b'(')?;
        texcoords.push([t.float("a texture coordinate")?, t.float("a texture coordinate")?]);
        t.mark(b')')?;
        let first = t.integer("a vertex's first weight")?;
        let count = t.integer("a vertex's weight count")?;
        if first < 0 || count < 1 {
            return Err(t.error(format!(
                "vertex {v}'s weights start at {first} and number {count}; a vertex needs at least one"
            )));
        }
        // Checked against the weights once they are read; both fit in a usize, being under 2^63.
        verts.push(first as usize..(first as usize).saturating_add(count as usize));
        vert_lines.push(t.token_line());
    }

    let tri_count = t.count("numtris", TRI_BYTES)?;
    let mut tris = Vec::with_capacity(tri_count);
    for k in 0..tri_count {
        t.numbered("tri", k)?;
        let mut corners = [0u32; 3];
        for corner in &mut corners {
            // Vertex counts fit in u32: each takes bytes of the text, which has fewer than 2^32.
            *corner = t.index("a triangle's corner (a vertex of its mesh)", vert_count)? as u32;
        }
        tris.push(corners);
    }

    let weight_count = t.count("numweights", WEIGHT_BYTES)?;
    let mut weights = Vec::with_capacity(weight_count);
    for w in 0..weight_count {
        t.numbered("weight", w)?;
        let joint = t.index("a weight's joint", joint_count)?;
        let bias = t.float("a weight's bias")?;
        if bias < 0.0 {
            return Err(t.error(format!("weight {w}'s bias is {bias}; a bias cannot be negative")));
        }
        let position = t.triple("a weight's position")?;
        weights.push(FileWeight { joint, bias, position });
    }
    t.mark(b'}')?;

    // Each vertex's run of weights must lie inside this mesh's list.
    for (v, (run, &line)) in verts.iter().zip(&vert_lines).enumerate() {
        if run.end > weight_count {
            let problem = format!(
                "mesh {m}, vertex {v}: its weights run from {} to {}, past the mesh's {}",
                run.start,
                run.end - 1,
                match weight_count {
                    0 => "0 weights".to_string(),
                    n => format!("last weight, {}", n - 1),
                }
            );
            return Err(Md5Error::At { line, problem });
        }
    }
    Ok(FileMesh { shader, verts, texcoords, tris, weights })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w_is_computed_negative_and_the_quaternion_is_unit() {
        let q = unit_quaternion(DVec3::new(0.0, 0.0, 0.6)).unwrap();
        assert!((q.w + 0.8).abs() < 1e-6 && q.is_normalized(), "{q}");
        // Rounding past 1 (0.7072² + 0.7072² = 1.0003) is forgiven, w is 0; clearly past 1 is not a unit quaternion.
        let q = unit_quaternion(DVec3::new(0.7072, 0.0, 0.7072)).unwrap();
        assert!(q.w == 0.0 && q.is_normalized(), "{q}");
        assert!(unit_quaternion(DVec3::new(0.9, 0.9, 0.0)).is_err());
    }

    #[test]
    fn counts_indices_and_runs_are_checked_where_they_are_read() {
        let good = "MD5Version 10\nnumJoints 1\nnumMeshes 1\njoints {\n\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n\
                    mesh {\nnumverts 1\nvert 0 ( 0 0 ) 0 1\nnumtris 0\nnumweights 1\nweight 0 0 1 ( 1 2 3 )\n}\n";
        let file = parse(good).unwrap();
        assert_eq!(file.meshes[0].weights[0].position, Vec3::new(1.0, 2.0, 3.0));
        let fails = |from: &str, to: &str, expected: &str| {
            let e = parse(&good.replace(from, to)).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains(expected), "{from} -> {to}: {e}");
        };
        fails("MD5Version 10", "MD5Version 11", "line 1: MD5Version 11");
        fails("\"root\" -1", "\"root\" 0", "line 5: joint 0 \"root\"'s parent is 0; it must be an earlier");
        fails("0 1\nnumtris", "0 2\nnumtris", "line 9: mesh 0, vertex 0: its weights run from 0 to 1, past");
        fails("weight 0 0 1", "weight 0 1 1", "line 12: a weight's joint is 1, outside 0 to 0");
        fails("weight 0 0 1", "weight 0 0 -1", "bias is -1");
        fails(
            "numtris 0",
            "numtris 1\ntri 0 0 0 1",
            "line 11: a triangle's corner (a vertex of its mesh) is 1",
        );
        fails("numverts 1\nvert 0", "numverts 1\nvert 1", "expected vert 0, found vert 1");
        fails("numweights 1", "numweights 2", "numweights says 2, which needs at least 38 more bytes");
        // With room for it (a comment at the end), the missing weight is found where it should be.
        let e = parse(&(good.replace("numweights 1", "numweights 2") + &"//".repeat(20))).err().unwrap();
        assert_eq!(
            e.to_string(),
            "line 13: expected weight 1 (the count before the weight lines says there are more), found '}'"
        );
        fails("( 1 2 3 )\n}\n", "( 1 2 3 )\n}\nmesh", "\"mesh\" follows the end");
        fails("numJoints 1", "numJoints 99", "numJoints says 99");
        assert!(parse("").err().is_some_and(|e| e.to_string().contains("the file is empty")));
    }
}
