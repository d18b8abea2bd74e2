//! An MD5 model that id's tools did not make, written by the test: a small "Bob with lamp", a biped
//! made the way Blender's MD5 exporter writes one. Z up, facing -y (Blender's front), so its toes
//! lie at y = -5.3 and its ankles at y = +1.6, as the classic Bob's do; 24 frames a second; its
//! shader names a PNG beside it; and two roots, Bob's `origin` and the `lamp` he carries.
//!
//! [`write`] turns the same Bob to face any way along the ground: `ahead` = -y is Blender's Bob,
//! +x id's.
//!
//! Joints (bind pose, object space, no joint turned): `origin` at the ground, `hips` 10 up, then
//! for each side a `thigh`, a `knee` and an `ankle`, the `toe` on the ground 5.3 + 1.6 = 6.9 ahead
//! of the ankle; the `lamp` a root of its own. Each joint holds one vertex, weight 1, near its
//! place; the mesh's triangles join the feet and the hips. The animation `walk` lifts the hips
//! (Tz) over five frames: up 0.5, back, down 0.5, back.

use glam::Vec3;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The colour of Bob's picture, `bob_body.png`.
pub const BODY_COLOUR: [u8; 3] = [200, 120, 40];

/// Bob's joints: name, parent, place facing -y (Blender's front). The numbers are not round, as
/// an exporter's are not: each place is the round one scaled by 1.0137 and moved by 0.0123.
pub fn joints() -> Vec<(&'static str, Option<usize>, Vec3)> {
    let side = |s: f32, z: f32, y: f32| Vec3::new(s * 1.0, y, z);
    let joints = vec![
        ("origin", None, Vec3::ZERO),
        ("hips", Some(0), Vec3::new(0.0, 0.0, 10.0)),
        ("thigh.L", Some(1), side(1.0, 9.0, 0.0)),
        ("knee.L", Some(2), side(1.0, 5.0, 1.2)),
        ("ankle.L", Some(3), side(1.0, 1.6, 1.6)),
        ("toe.L", Some(4), side(1.5, 0.0, -5.3)),
        ("thigh.R", Some(1), side(-1.0, 9.0, 0.0)),
        ("knee.R", Some(6), side(-1.0, 5.0, 1.2)),
        ("ankle.R", Some(7), side(-1.0, 1.6, 1.6)),
        ("toe.R", Some(8), side(-1.5, 0.0, -5.3)),
        ("lamp", None, Vec3::new(3.0, -1.0, 8.0)),
    ];
    joints.into_iter().map(|(name, parent, at)| (name, parent, at * 1.0137 + Vec3::splat(0.0123))).collect()
}

/// Where each vertex sits in its joint's space: near it, not on it.
const NEAR: Vec3 = Vec3::new(0.1234, -0.0567, 0.0891);

/// `p` of the -y Bob, turned about z so that -y goes to `ahead` (a unit vector along x or y).
fn turned(p: Vec3, ahead: Vec3) -> Vec3 {
    // The turn about z that takes -y to `ahead`, its numbers rounded to 4 decimals (exact quarter turns).
    let angle = ahead.y.atan2(ahead.x) - (-1.0f32).atan2(0.0);
    let (sin, cos) = angle.sin_cos();
    let round = |x: f32| (x * 1e4).round() / 1e4;
    Vec3::new(round(cos * p.x - sin * p.y), round(sin * p.x + cos * p.y), p.z)
}

/// The `.md5mesh` of Bob facing `ahead`, its shader `shader`.
pub fn mesh(ahead: Vec3, shader: &str) -> String {
    let joints = joints();
    let mut out = format!(
        "MD5Version 10\ncommandline \"written by the test, as Blender's exporter writes\"\n\nnumJoints {}\nnumMeshes 1\n\njoints {{\n",
        joints.len()
    );
    for (name, parent, at) in &joints {
        let at = turned(*at, ahead);
        let parent = parent.map_or(-1, |p| p as i64);
        writeln!(out, "\t\"{name}\"\t{parent} ( {} {} {} ) ( 0 0 0 )", at.x, at.y, at.z).unwrap();
    }
    writeln!(out, "}}\n\nmesh {{\n\tshader \"{shader}\"\n\tnumverts {}", joints.len()).unwrap();
    for v in 0..joints.len() {
        let st = [(v % 3) as f32 / 2.0, (v % 2) as f32];
        writeln!(out, "\tvert {v} ( {} {} ) {v} 1", st[0], st[1]).unwrap();
    }
    // Each foot a triangle (ankle, toe, knee), and the hips' triangle (hips, both thighs).
    let tris = [[3, 5, 4], [7, 9, 8], [1, 6, 2]];
    writeln!(out, "\n\tnumtris {}", tris.len()).unwrap();
    for (k, [a, b, c]) in tris.iter().enumerate() {
        writeln!(out, "\ttri {k} {a} {b} {c}").unwrap();
    }
    writeln!(out, "\n\tnumweights {}", joints.len()).unwrap();
    for v in 0..joints.len() {
        let near = turned(NEAR, ahead);
        writeln!(out, "\tweight {v} {v} 1 ( {} {} {} )", near.x, near.y, near.z).unwrap();
    }
    out.push_str("}\n");
    out
}

/// The `.md5anim` `walk`: 24 frames a second, the hips lifted and lowered over five frames.
pub fn walk(ahead: Vec3) -> String {
    let joints = joints();
    let mut out = format!(
        "MD5Version 10\ncommandline \"\"\n\nnumFrames 5\nnumJoints {}\nframeRate 24\nnumAnimatedComponents 1\n\nhierarchy {{\n",
        joints.len()
    );
    for (name, parent, _) in &joints {
        let (flags, start) = if *name == "hips" { (4, 0) } else { (0, 0) };
        writeln!(out, "\t\"{name}\"\t{} {flags} {start}", parent.map_or(-1, |p| p as i64)).unwrap();
    }
    out.push_str("}\n\nbounds {\n");
    for _ in 0..5 {
        out.push_str("\t( -8 -8 0 ) ( 8 8 11 )\n");
    }
    out.push_str("}\n\nbaseframe {\n");
    for (_, parent, at) in &joints {
        // Relative to the parent (no joint is turned): the difference of places.
        let local = turned(*at - parent.map_or(Vec3::ZERO, |p| joints[p].2), ahead);
        writeln!(out, "\t( {} {} {} ) ( 0 0 0 )", local.x, local.y, local.z).unwrap();
    }
    out.push_str("}\n");
    let hips = joints[1].2.z;
    for (k, z) in [hips, hips + 0.5, hips, hips - 0.5, hips].iter().enumerate() {
        writeln!(out, "\nframe {k} {{\n\t{z}\n}}").unwrap();
    }
    out
}

/// A 2 x 2 PNG of one colour.
pub fn png(colour: [u8; 3]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 2, 2);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(&colour.repeat(4)).expect("PNG data");
    drop(writer);
    bytes
}

/// Bob facing `ahead`, written into `dir` as `bob.md5mesh`, `walk.md5anim` and `bob_body.png`
/// (his shader); the `.md5mesh`'s path.
pub fn write(dir: &Path, ahead: Vec3) -> PathBuf {
    std::fs::create_dir_all(dir).expect("the folder can be made");
    let path = dir.join("bob.md5mesh");
    std::fs::write(&path, mesh(ahead, "bob_body.png")).expect("writable");
    std::fs::write(dir.join("walk.md5anim"), walk(ahead)).expect("writable");
    std::fs::write(dir.join("bob_body.png"), png(BODY_COLOUR)).expect("writable");
    path
}
