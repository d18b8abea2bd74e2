//! Every kind of lanes this build runs, against the readable blend (`blend::blend_run` by `Linear`,
//! `normals::skin_normal`), on the bench's tube under a palette that turns, stretches and mirrors:
//! on x86-64 the portable, SSE2 (four lanes, `lanes/four.rs`) and AVX2 lanes; in WebAssembly the
//! portable and the page's `simd128` lanes, run in Node (`cargo test -p skinning-fast --target
//! wasm32-wasip1`, with `web/wasi.mjs` as cargo's runner). A skin of more joints than the four
//! lanes copy onto the stack takes the eight-lane road, and gives the same numbers; so does a
//! palette that starts off a cache line.

use glam::{Mat4, Quat, Vec3, Vec3A};
use skinning_fast::lanes::{Lanes, ROWS_ON_STACK};
use skinning_fast::synthetic;
use skinning_method::blend::{Linear, blend_run};
use skinning_method::lbs_or_dqs::Palette;
use skinning_method::normals::skin_normal;

/// How far apart the lanes and the reference may be: of the model's size, and for a normal.
const TOLERANCE: f32 = 1e-6;

/// A palette that turns, moves, stretches unevenly and mirrors (every joint, so that no blend
/// passes through a squash, where a normal's rounding grows without bound).
fn palette(joints: usize) -> Vec<Mat4> {
    (0..joints)
        .map(|j| {
            let t = j as f32;
            let scale = Vec3::new(-1.0 - 0.01 * t, 1.0 - 0.002 * t, 1.2);
            let turn = Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), 0.05 * t);
            Mat4::from_scale_rotation_translation(scale, turn, Vec3::new(0.1 * t, -0.2, 0.05 * t))
        })
        .collect()
}

/// The tube of `bones` bones and `rings * ring_size` vertices through every kind of lanes here.
fn every_lanes_on(bones: usize, rings: usize, ring_size: usize) {
    let model = synthetic::tube(bones, rings, ring_size);
    let (skin, n) = (&model.skin, model.skin.len());
    let palette = palette(bones);
    let mut reference = vec![Vec3A::ZERO; n];
    blend_run(skin, skin.bind(), &Linear(&palette), 0..n, &mut reference);
    let reference_normals: Vec<Vec3A> = skin
        .vertex_influences()
        .iter()
        .zip(skin.normals())
        .map(|(v, &normal)| skin_normal(v, normal, &palette))
        .collect();
    let size = reference.iter().fold(0.0f32, |m, p| m.max(p.length()));
    // The portable lanes run everywhere: the loop below checks one kind at least.
    assert!(Lanes::Portable.runs_here());
    for lanes in Lanes::all().into_iter().filter(|l| l.runs_here()) {
        let at = format!("{} lanes, {bones} bones, {n} vertices", lanes.name());
        let (mut positions, mut normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
        lanes.blend_run(skin, skin.shape(), Palette::Lbs(&palette), 0..n, &mut positions, &mut normals);
        for (v, (a, b)) in reference.iter().zip(&positions).enumerate() {
            assert!(a.distance(*b) <= TOLERANCE * size, "{at}: vertex {v} at {b}, the reference at {a}");
        }
        for (v, (a, b)) in reference_normals.iter().zip(&normals).enumerate() {
            assert!(a.distance(*b) <= TOLERANCE, "{at}: normal {v} is {b}, the reference's {a}");
        }
        // Without fused multiply-add the lanes take the reference's steps: its normals, bit for bit.
        if !lanes.fused() {
            assert!(normals == reference_normals, "{at}: not the reference's normals, bit for bit");
        }
        let mut alone = vec![Vec3A::NAN; n];
        lanes.blend_run(skin, skin.shape(), Palette::Lbs(&palette), 0..n, &mut alone, &mut []);
        assert!(alone == positions, "{at}: positions alone differ from positions with normals");
    }
}

#[test]
fn every_kind_of_lanes_here_is_the_readable_blend() {
    // 753 vertices: groups of four and of eight, and a few left over.
    every_lanes_on(64, 251, 3);
}

#[test]
fn a_skin_past_the_stack_copy_gives_the_same_numbers() {
    const BONES: usize = ROWS_ON_STACK + 44;
    every_lanes_on(BONES, 101, 7);
}

/// In WebAssembly with `simd128` (the page's build), the page's own lanes are the ones it runs.
#[test]
fn the_page_runs_its_own_lanes() {
    let page = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
    assert_eq!(Lanes::Simd128.runs_here(), page);
    if page {
        assert_eq!(Lanes::best(), Lanes::Simd128);
    }
}

/// The bench's 64 bones' palette 16 bytes past a cache line, as an allocator may place one.
#[repr(C, align(64))]
struct OffLine([f32; 4], [Mat4; 64]);

/// The same palette from a line's start.
#[repr(C, align(64))]
struct OnLine([Mat4; 64]);

#[test]
fn where_the_palette_lies_changes_no_number() {
    let model = synthetic::tube(64, 101, 7);
    let (skin, n) = (&model.skin, model.skin.len());
    let matrices: [Mat4; 64] = palette(64).try_into().expect("64 matrices");
    let (on, off) = (Box::new(OnLine(matrices)), Box::new(OffLine([0.0; 4], matrices)));
    assert_eq!((on.0.as_ptr() as usize % 64, off.1.as_ptr() as usize % 64), (0, 16));
    for lanes in Lanes::all().into_iter().filter(|l| l.runs_here()) {
        let mut outputs = Vec::new();
        for placed in [&on.0[..], &off.1[..]] {
            let (mut positions, mut normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
            lanes.blend_run(skin, skin.shape(), Palette::Lbs(placed), 0..n, &mut positions, &mut normals);
            outputs.push((positions, normals));
        }
        assert!(outputs[0] == outputs[1], "{} lanes: the palette's place changed the numbers", lanes.name());
    }
}
