//! The fast path (`crates/fast/src/lanes.rs`) computes what the reference does: the readable loop of `blend.rs`
//! (`blend_run` with `Linear`, positions and normals), on every kind of lanes this processor runs
//! (the portable fallback always among them), on the article's scene, the bench's tube and every
//! sample model; with every influence (the eight-influence fixture, `tests/common/eight.rs`, whose
//! vertices have four extras each); and on a morphed skin (the face of `tests/common/face.rs`, and
//! the robot with `Head_4:Surprised` at 1), where the blend reads this frame's shape, the pose's
//! own positions and normals, beside the skin's influences.
//!
//! Positions agree within 1e-6 of the model's size (the fast path blends the matrix first, the
//! reference the moved points: one rounding apart). Normals agree within 1e-6 and are unit length.
//! Lanes without fused multiply-add follow the reference's operations one for one, so there (on
//! x86-64, where glam computes in SSE2) the normals are the reference's bits, and the positions
//! those of the blended matrix times the bind position, as glam computes it; a vertex with extras
//! is the reference's own bits, since the second pass (`blend::finish_extras`) blends it again whole
//! by the readable method. Dual quaternions likewise, against `blend_run` with `DualQuats` (to a
//! rounding: the lanes sum in another order), wherever the pose's joints only turn and move. The
//! library's fast path (`fast::FastPath`) is the best lanes' result; on every thread, it gives the
//! one thread's result bit for bit, extras and morph included. A frame of `Pose::run` blended by the
//! fast path is the frame of the readable steps, to a rounding.

use common::{eight, face};
use glam::{Mat4, Vec3, Vec3A};
use skinning_fast::fast_path::FastPath;
use skinning_fast::lanes::Lanes;
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_formats::gltf_import::{self, Imported, load_from_slice};
use skinning_method::blend::{Blend, Linear};
use skinning_method::clip::Clip;
use skinning_method::dual_quat::{DualQuat, compute_dq_palette};
use skinning_method::frame::{Blending, Frame, Pose};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Palette, Reference};
use skinning_method::model::Model;
use skinning_method::morph::{Held, MeshMorph, Morph, Morphed};
use skinning_method::normals::skin_normal;
use skinning_method::scene;
use skinning_method::skin::{Influence, Joint, Skin};

/// How far apart the fast path and the reference may be: of the model's size, and for a normal.
const TOLERANCE: f32 = 1e-6;

/// The kinds of lanes to check here: every kind this processor runs.
fn lanes_here() -> Vec<Lanes> {
    let here: Vec<Lanes> = Lanes::all().into_iter().filter(|l| l.runs_here()).collect();
    assert!(here.contains(&Lanes::Portable), "the portable lanes run everywhere");
    assert!(here.contains(&Lanes::best()));
    here
}

/// The diagonal of the box around `points`.
fn size(points: &[Vec3A]) -> f32 {
    let (min, max) =
        points.iter().fold((Vec3A::INFINITY, Vec3A::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    (max - min).length()
}

/// The blended matrix of the four slots times the bind position, summed and applied in glam's
/// order; a vertex with extras, the readable method's own result (`Linear`'s position over every
/// influence), since the second pass blends it again whole: what lanes without fused multiply-add
/// compute, bit for bit.
fn matrix_first(skin: &Skin, bind: &[Vec3A], palette: &[Mat4]) -> Vec<Vec3A> {
    let blended = |v: &skinning_method::skin::VertexInfluences| {
        let mut m = Mat4::ZERO;
        for (&j, &w) in v.joints.iter().zip(&v.weights) {
            m += palette[j as usize] * w;
        }
        m
    };
    let vertices = skin.vertex_influences();
    let mut out: Vec<Vec3A> =
        vertices.iter().zip(bind).map(|(v, &p)| blended(v).transform_point3a(p)).collect();
    for (vertex, extras) in skin.extras_by_vertex(0..skin.len()) {
        out[vertex] = Linear(palette).position(&vertices[vertex], extras, bind[vertex]);
    }
    out
}

/// Checks the fast path's `positions` and `normals` (each a pair: the reference's, the fast
/// path's) agree within the tolerance, and the normals are unit length; returns the worst distances
/// (positions over `size`, normals).
fn worst(at: &str, size: f32, positions: (&[Vec3A], &[Vec3A]), normals: (&[Vec3A], &[Vec3A])) -> (f32, f32) {
    let (mut worst_position, mut worst_normal) = (0.0f32, 0.0f32);
    for (v, (a, b)) in positions.0.iter().zip(positions.1).enumerate() {
        let apart = a.distance(*b) / size;
        assert!(apart <= TOLERANCE, "{at}: vertex {v} at {b}, the reference at {a}: {apart:e} of the size");
        worst_position = worst_position.max(apart);
    }
    for (v, (a, b)) in normals.0.iter().zip(normals.1).enumerate() {
        assert!(a.distance(*b) <= TOLERANCE, "{at}: normal {v} is {b}, the reference's {a}");
        assert!((b.length() - 1.0).abs() <= TOLERANCE, "{at}: normal {v} is {} long", b.length());
        worst_normal = worst_normal.max(a.distance(*b));
    }
    (worst_position, worst_normal)
}

/// A model and its morph targets (none for most).
type Figure<'a> = (&'a Model, &'a [MeshMorph]);

/// The fast path on every kind of lanes against the reference, for `model` (with its morph
/// `targets`) posed by `clip` at `times` (with the morph weights `held` over the clip's), by linear blending and (where the pose
/// is rigid) by dual quaternions; returns the worst distances seen (positions over the size,
/// normals) and at how many times the pose was rigid enough for dual quaternions.
fn check(
    name: &str,
    (model, targets): Figure,
    clip: &Clip,
    times: &[f64],
    held: &[Held],
) -> (f32, f32, usize) {
    let (n, with_normals) = (model.skin.len(), model.skin.normals().len());
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, targets));
    let (mut worst_position, mut worst_normal, mut rigid) = (0.0f32, 0.0f32, 0);
    let mut keep =
        |(p, q): (f32, f32)| (worst_position, worst_normal) = (worst_position.max(p), worst_normal.max(q));
    for &t in times {
        // Step 4: this frame's shape, which every blend reads (the skin's bind positions and
        // normals where the model has no morph targets).
        let mut morph = Morph { targets, held, morphed: &mut morphed };
        let frame = Frame { reshape: Some(&mut morph), ..Frame::new(clip, t) }.palette_only();
        pose.run(model, frame).expect("linear blending takes any palette");
        let (skin, palette, shape) = (&model.skin, &pose.palette, morphed.shape(&model.skin));
        let (mut positions, mut normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; with_normals]);
        Reference.blend(skin, shape, Palette::Lbs(palette), &mut positions, &mut normals);
        // The readable positions alone are the same positions, and `blend::blend_run` is that loop.
        let mut alone = vec![Vec3A::NAN; n];
        let linear = skinning_method::blend::Linear(palette);
        skinning_method::blend::blend_run(skin, shape.positions, &linear, 0..n, &mut alone);
        assert!(alone == positions, "{name} at {t} s: the reference's positions alone differ");
        let size = size(&positions).max(f32::MIN_POSITIVE);
        for lanes in lanes_here() {
            let (mut fast, mut fast_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
            lanes.blend_run(skin, shape, Palette::Lbs(palette), 0..n, &mut fast, &mut fast_normals);
            let at = format!("{name}, {} at {t} s, {} lanes", clip.name, lanes.name());
            keep(worst(&at, size, (&positions, &fast), (&normals, &fast_normals)));
            // Positions alone are the same positions.
            let mut alone = vec![Vec3A::NAN; n];
            lanes.blend_run(skin, shape, Palette::Lbs(palette), 0..n, &mut alone, &mut []);
            assert!(alone == fast, "{at}: positions alone differ from positions with normals");
            // glam on x86-64 sums in SSE2, one rounding per step; elsewhere it may fuse or pair.
            if !lanes.fused() && cfg!(target_arch = "x86_64") {
                assert!(fast_normals == normals, "{at}: not the reference's normals, bit for bit");
                assert!(
                    fast == matrix_first(skin, shape.positions, palette),
                    "{at}: not M · bind, bit for bit"
                );
            }
        }
        // The library's fast path takes the best lanes.
        let mut best = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
        FastPath::new().blend(skin, shape, Palette::Lbs(palette), &mut best.0, &mut best.1);
        let mut expected = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
        Lanes::best().blend_run(skin, shape, Palette::Lbs(palette), 0..n, &mut expected.0, &mut expected.1);
        assert!(best == expected, "{name}: FastPath::new() is not the best lanes' result");

        // Dual quaternions, where the palette is rigid.
        let mut dq = vec![DualQuat::IDENTITY; palette.len()];
        let Ok(scale) = compute_dq_palette(palette, &mut dq) else { continue };
        rigid += 1;
        let dqs = Palette::Dqs { joints: &dq, scale };
        Reference.blend(skin, shape, dqs, &mut positions, &mut normals);
        for lanes in lanes_here() {
            let (mut fast, mut fast_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
            lanes.blend_run(skin, shape, dqs, 0..n, &mut fast, &mut fast_normals);
            let at = format!("{name}, {} at {t} s, DQS on {} lanes", clip.name, lanes.name());
            keep(worst(&at, size, (&positions, &fast), (&normals, &fast_normals)));
            let mut alone = vec![Vec3A::NAN; n];
            lanes.blend_run(skin, shape, dqs, 0..n, &mut alone, &mut []);
            assert!(alone == fast, "{at}: positions alone differ from positions with normals");
        }
        let mut best = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
        FastPath::new().blend(skin, shape, dqs, &mut best.0, &mut best.1);
        let mut expected = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
        Lanes::best().blend_run(skin, shape, dqs, 0..n, &mut expected.0, &mut expected.1);
        assert!(best == expected, "{name}: FastPath::new() by DQS is not the best lanes' result");
    }
    (worst_position, worst_normal, rigid)
}

#[test]
fn the_article_and_its_clips() {
    let model = scene::article().expect("the article's scene");
    for clip in scene::clips().expect("the article's clips") {
        let (_, _, rigid) = check("the article", (&model, &[]), &clip, &[0.0, 0.5, 1.3, 2.0, 2.9, 4.0], &[]);
        assert_eq!(rigid, 6, "the article's joints only turn: dual quaternions at every time");
    }
}

#[test]
fn the_bench_tube() {
    // The bench's tube, shorter: 64 bones, rings of 16; and one of 13 vertices, 5 past whole groups of 8.
    for rings in [2, 125] {
        let model = synthetic::tube(64, rings, 16);
        let (_, _, rigid) = check("the tube", (&model, &[]), &synthetic::wave(), &[0.0, 0.7, 1.9], &[]);
        assert_eq!(rigid, 3, "the wave only turns joints: dual quaternions at every time");
    }
    check("a tube of 13", (&synthetic::tube(5, 1, 13), &[]), &synthetic::wave(), &[0.7], &[]);
}

#[test]
fn every_sample_model_every_clip() {
    for name in ["Fox.glb", "SimpleSkin.gltf", "RobotExpressive.glb"] {
        let Some(path) = common::sample_model(name) else { continue };
        let imported = gltf_import::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (mut worst_position, mut worst_normal, mut poses, mut rigid) = (0.0f32, 0.0f32, 0, 0);
        for clip in &imported.clips {
            let d = clip.duration as f64;
            let times = [0.0, d * 0.25, d * 0.5, d * 0.8, d];
            let (p, n, r) = check(name, (&imported.model, &imported.morphs), clip, &times, &[]);
            (worst_position, worst_normal) = (worst_position.max(p), worst_normal.max(n));
            (poses, rigid) = (poses + times.len(), rigid + r);
        }
        // `cargo test --test lanes -- --nocapture` prints how close they came.
        eprintln!(
            "{name}: {} clips, {} vertices, {} normals, {poses} poses ({rigid} for dual quaternions): \
             positions within {worst_position:.1e} of the size, normals within {worst_normal:.1e}",
            imported.clips.len(),
            imported.model.skin.len(),
            imported.model.skin.normals().len()
        );
    }
}

/// Any run of vertices, wherever it starts and ends, gives each vertex the whole skin's result.
#[test]
fn every_vertex_alike_wherever_its_run_starts_and_ends() {
    let model = synthetic::tube(8, 3, 7);
    let mut pose = Pose::new(&model);
    pose.run(&model, Frame::new(&synthetic::wave(), 0.7).palette_only())
        .expect("linear blending takes any palette");
    let (skin, n) = (&model.skin, model.skin.len());
    for lanes in lanes_here() {
        let (mut whole, mut whole_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        lanes.blend_run(
            skin,
            skin.shape(),
            Palette::Lbs(&pose.palette),
            0..n,
            &mut whole,
            &mut whole_normals,
        );
        for start in 0..n {
            for end in start + 1..=(start + 19).min(n) {
                let (mut part, mut normals) = (vec![Vec3A::NAN; end - start], vec![Vec3A::NAN; end - start]);
                lanes.blend_run(
                    skin,
                    skin.shape(),
                    Palette::Lbs(&pose.palette),
                    start..end,
                    &mut part,
                    &mut normals,
                );
                assert!(part == whole[start..end], "{} lanes, vertices {start}..{end}", lanes.name());
                assert!(
                    normals == whole_normals[start..end],
                    "{} lanes, normals {start}..{end}",
                    lanes.name()
                );
            }
        }
    }
}

/// The rule's two turns by hand: a mirror flips the normal back, and a blend squashed flat keeps
/// the bind normal.
#[test]
fn a_mirror_and_a_squash_as_the_rule_says() {
    let joints = vec![Joint { bone: 0, offset: Mat4::IDENTITY }; 2];
    let one = |joint| [Influence { joint, weight: 1.0 }];
    let half = [Influence { joint: 0, weight: 0.5 }, Influence { joint: 1, weight: 0.5 }];
    let table: [(Vec3, &[Influence]); 3] = [(Vec3::X, &one(1)), (Vec3::X, &half), (Vec3::Y, &half)];
    let mut skin = Skin::from_table(joints, &table).expect("a valid skin");
    skin.set_normals(&[Vec3::X, Vec3::X, Vec3::Y]).expect("unit normals");
    // Joint 0 stays; joint 1 mirrors x. Half of each squashes x flat: M = diag(0, 1, 1).
    let palette = [Mat4::IDENTITY, Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0))];
    let expected_positions = [Vec3A::NEG_X, Vec3A::ZERO, Vec3A::Y];
    // Mirrored: M⁻ᵀ x = -x. Squashed flat along x: the cofactor of diag(0, 1, 1) is diag(1, 0, 0),
    // which keeps the normal x (a determinant of 0 counts as positive) and turns y into nothing, so
    // y keeps its bind normal.
    let expected_normals = [Vec3A::NEG_X, Vec3A::X, Vec3A::Y];
    for lanes in lanes_here() {
        let (mut positions, mut normals) = ([Vec3A::NAN; 3], [Vec3A::NAN; 3]);
        lanes.blend_run(&skin, skin.shape(), Palette::Lbs(&palette), 0..3, &mut positions, &mut normals);
        assert_eq!(positions, expected_positions, "{} lanes", lanes.name());
        assert_eq!(normals, expected_normals, "{} lanes", lanes.name());
        for (v, (vertex, n)) in skin.vertex_influences().iter().zip(skin.normals()).enumerate() {
            assert_eq!(normals[v], skin_normal(vertex, *n, &palette), "the reference, vertex {v}");
        }
    }
}

/// A frame of `Pose::run` blended by the fast path is the frame of the readable steps, to a rounding:
/// the palette, the morph, then the readable loop for positions and normals; and a frame blended by
/// the readable loops (`ByMethod` on `Reference`) is those steps bit for bit. On the tube, on vertices
/// of eight influences and on morphed skins.
#[test]
fn a_frame_of_pose_is_the_readable_steps() {
    let (tube, wave) = (synthetic::tube(64, 125, 16), synthetic::wave());
    let (eight, face) = (eight_influences(), the_face());
    let robot = surprised_robot();
    let mut models: Vec<(&str, Figure, &Clip, &[Held])> = vec![
        ("the tube", (&tube, &[]), &wave, &[]),
        ("eight influences", (&eight.model, &eight.morphs), &eight.clips[0], &[]),
        ("the face", (&face.model, &face.morphs), &face.clips[0], &[]),
    ];
    if let Some((robot, held)) = &robot {
        models.push(("the robot, Surprised", (&robot.model, &robot.morphs), &robot.clips[0], held));
    }
    for (name, (model, targets), clip, held) in models {
        let (mut pose, mut by_reference) = (Pose::new(model), Pose::new(model));
        let new_morph = || Morphed::new(&model.skin, targets);
        let (mut morphed, mut morphed_again) = (new_morph(), new_morph());
        for method in [Method::Lbs, Method::Dqs] {
            // As the program does: the clip, the held morph weights over it, then steps 3 to 6.
            let mut on_fast_path = ByMethod::new(method, FastPath::new());
            let mut morph = Morph { targets, held, morphed: &mut morphed };
            if pose.run(model, held_frame(clip, &mut morph, on_fast_path.ending())).is_err() {
                // The face's badge and the robot's joints scale: no dual quaternion holds them.
                assert!(method == Method::Dqs && !name.contains("tube"), "{name}: {method:?} refused");
                continue;
            }
            // The readable steps by hand, from the frame's palette and morphed skin.
            let mut readable = pose.clone();
            let (skin, shape) = (&model.skin, morphed.shape(&model.skin));
            let palette = on_fast_path.palette(method, &pose.palette).expect("the frame blended by it");
            Reference.blend(skin, shape, palette, &mut readable.skinned, &mut readable.normals);
            let size = size(&readable.skinned);
            let at = format!("{name}, {method:?}");
            worst(&at, size, (&readable.skinned, &pose.skinned), (&readable.normals, &pose.normals));
            // The frame on the readable loops is those steps, bit for bit.
            let mut reference = ByMethod::new(method, Reference);
            let mut morph = Morph { targets, held, morphed: &mut morphed_again };
            let frame = held_frame(clip, &mut morph, reference.ending());
            by_reference.run(model, frame).expect("rigid, as on the fast path");
            assert!(by_reference.skinned == readable.skinned, "{at}: the reference frame's positions");
            assert!(by_reference.normals == readable.normals, "{at}: the reference frame's normals");
        }
    }
}

/// As the program runs a frame: `clip` at 0.7 s, the `morph` with its held weights over the clip's
/// (step 4), then steps 3 to 6 as `blending` says.
fn held_frame<'a, 'b: 'a>(clip: &'a Clip, morph: &'a mut Morph<'b>, blending: Blending<'a>) -> Frame<'a> {
    Frame { reshape: Some(morph), blending, ..Frame::new(clip, 0.7) }
}

/// The eight-influence fixture, loaded as the program loads it: five vertices, each on eight joints.
fn eight_influences() -> Imported {
    load_from_slice(&eight::eight().glb(), None).expect("the fixture loads")
}

/// The face of `tests/common/face.rs`: two morph targets, their weights keyed by its clip.
fn the_face() -> Imported {
    load_from_slice(&face::face(true).embedded(), None).expect("the face loads")
}

/// The robot with `Head_4`'s target `Surprised` held at 1, as `--morph Head_4:Surprised=1` holds
/// it; None where the sample models are not here.
fn surprised_robot() -> Option<(Imported, Vec<Held>)> {
    let path = common::sample_model("RobotExpressive.glb")?;
    let imported = gltf_import::load(&path).expect("the robot loads");
    let head = imported.morphs.iter().find(|m| m.name == "Head_4").expect("Head_4 has targets");
    let k = head.targets.iter().position(|t| t == "Surprised").expect("Head_4 has Surprised");
    let held = vec![Held { weight: head.weights.start + k, value: 1.0 }];
    Some((imported, held))
}

#[test]
fn every_influence_counts_on_the_fast_path() {
    let imported = eight_influences();
    let (model, clip) = (&imported.model, &imported.clips[0]);
    let skin = &model.skin;
    assert_eq!(skin.most_influences(), 8, "four extras a vertex: the second pass has work to do");
    let times = [0.0, 0.3, 0.55, 0.95];
    let (p, n, rigid) = check("eight influences", (model, &imported.morphs), clip, &times, &[]);
    assert_eq!(rigid, times.len(), "the fixture's joints only turn and move: dual quaternions too");
    eprintln!("eight influences: positions within {p:.1e} of the size, normals within {n:.1e}");

    // Without its second pass, the fast path would be the four slots alone, far from every influence.
    let mut pose = Pose::new(model);
    pose.run(model, Frame::new(clip, 0.55).palette_only()).expect("linear blending takes any palette");
    let mut fast = vec![Vec3A::NAN; skin.len()];
    FastPath::new().blend(skin, skin.shape(), Palette::Lbs(&pose.palette), &mut fast, &mut []);
    let four: Vec<Vec3A> = (skin.vertex_influences().iter().zip(skin.bind()))
        .map(|(v, &p)| Linear(&pose.palette).position(v, &[], p))
        .collect();
    let apart = fast.iter().zip(&four).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max) / size(&fast);
    assert!(apart > 1e-3, "the extras moved no vertex: {apart:e} of the size");
}

#[test]
fn a_morphed_skin_on_the_fast_path() {
    let face = the_face();
    let mut models = vec![("the face", face, Vec::new())];
    models.extend(surprised_robot().map(|(robot, held)| ("the robot, Surprised", robot, held)));
    for (name, imported, held) in &models {
        let model = &imported.model;
        let (mut worst_position, mut worst_normal) = (0.0f32, 0.0f32);
        for clip in imported.clips.iter().take(3) {
            let d = clip.duration as f64;
            let times = [0.0, d * 0.3, d * 0.75];
            let (p, n, _) = check(name, (model, &imported.morphs), clip, &times, held);
            (worst_position, worst_normal) = (worst_position.max(p), worst_normal.max(n));
            // The shape the fast path was handed is not the modelled one: the morph took part.
            let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
            let mut morph = Morph { targets: &imported.morphs, held, morphed: &mut morphed };
            let frame = Frame { reshape: Some(&mut morph), ..Frame::new(clip, d * 0.3) }.palette_only();
            pose.run(model, frame).expect("linear blending takes any palette");
            let shaped = morphed.reshaped().expect("a model with morph targets has a shape of its own");
            let moved = shaped.positions.iter().zip(model.skin.bind()).any(|(a, b)| a != b);
            assert!(moved, "{name}, {}: the morph moved no vertex", clip.name);
        }
        eprintln!(
            "{name}: positions within {worst_position:.1e} of the size, normals within {worst_normal:.1e}"
        );
    }
}

/// The fast path cut into runs of any size, and on two threads (`FastPath` with `BlendThreads`),
/// gives the one thread's result bit for bit, where vertices have extras and where the skin is
/// morphed.
#[test]
fn every_thread_gives_the_one_threads_bits_with_extras_and_a_morph() {
    let mut models =
        vec![("eight influences", eight_influences(), Vec::new()), ("the face", the_face(), Vec::new())];
    models.extend(surprised_robot().map(|(robot, held)| ("the robot, Surprised", robot, held)));
    let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
    let on_two = FastPath::new().on(threads);
    for (name, imported, held) in &models {
        let (model, clip) = (&imported.model, &imported.clips[0]);
        let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
        let mut morph = Morph { targets: &imported.morphs, held, morphed: &mut morphed };
        let at = Frame::new(clip, clip.duration as f64 * 0.6);
        pose.run(model, Frame { reshape: Some(&mut morph), ..at }.palette_only())
            .expect("linear blending takes any palette");
        let (skin, palette, shape) = (&model.skin, &pose.palette, morphed.shape(&model.skin));
        let (n, with_normals) = (skin.len(), skin.normals().len());
        let nan = || (vec![Vec3A::NAN; n], vec![Vec3A::NAN; with_normals]);
        let mut dq = vec![DualQuat::IDENTITY; palette.len()];
        let scale = compute_dq_palette(palette, &mut dq).ok();
        let mut palettes = vec![Palette::Lbs(palette)];
        palettes.extend(scale.map(|scale| Palette::Dqs { joints: &dq, scale }));
        for palette in palettes {
            let mut one = nan();
            FastPath::new().blend(skin, shape, palette, &mut one.0, &mut one.1);
            // Runs that cut groups of eight anywhere, one per vertex up to the whole skin in one:
            // each thread's share, as `BlendThreads::split` hands it out.
            for chunk in [1, 2, 3, 5, 8, 13, 64, 1000, n] {
                let mut many = nan();
                for start in (0..n).step_by(chunk) {
                    let end = (start + chunk).min(n);
                    let normals = if with_normals == 0 { &mut [][..] } else { &mut many.1[start..end] };
                    Lanes::best().blend_run(
                        skin,
                        shape,
                        palette,
                        start..end,
                        &mut many.0[start..end],
                        normals,
                    );
                }
                assert!(many == one, "{name}: {palette:?} in runs of {chunk} is not one thread's");
            }
            let mut many = nan();
            on_two.blend(skin, shape, palette, &mut many.0, &mut many.1);
            let on = on_two.threads.used_for(n);
            assert!(many == one, "{name}: {palette:?} on {on} threads, not one thread's");
        }
    }
}

/// A mesh bigger than most processors' caches (a quarter of a million vertices, 24 MB in and out
/// with its normals): the same numbers as a small one's, on each kind of vector lanes against the
/// reference, and on two threads against one.
#[test]
fn a_mesh_past_the_caches_gets_the_same_numbers() {
    let model = synthetic::tube(64, (1 << 18) / 16, 16);
    let mut pose = Pose::new(&model);
    pose.run(&model, Frame::new(&synthetic::wave(), 0.7).palette_only())
        .expect("linear blending takes any palette");
    let (skin, palette, n) = (&model.skin, &pose.palette, model.skin.len());
    let (mut positions, mut normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    Reference.blend(skin, skin.shape(), Palette::Lbs(palette), &mut positions, &mut normals);
    let size = size(&positions);
    for lanes in lanes_here().into_iter().filter(|&l| l != Lanes::Portable) {
        let (mut fast, mut fast_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
        lanes.blend_run(skin, skin.shape(), Palette::Lbs(palette), 0..n, &mut fast, &mut fast_normals);
        let at = format!("a tube of {n}, {} lanes", lanes.name());
        worst(&at, size, (&positions, &fast), (&normals, &fast_normals));
        let mut alone = vec![Vec3A::NAN; n];
        lanes.blend_run(skin, skin.shape(), Palette::Lbs(palette), 0..n, &mut alone, &mut []);
        assert!(alone == fast, "{at}: positions alone differ from positions with normals");
        if lanes == Lanes::Sse2 {
            assert!(fast_normals == normals, "{at}: not the reference's normals, bit for bit");
            assert!(fast == matrix_first(skin, skin.bind(), palette), "{at}: not M · bind, bit for bit");
        }
    }
    let mut one = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
    FastPath::new().blend(skin, skin.shape(), Palette::Lbs(palette), &mut one.0, &mut one.1);
    let mut two = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
    let on_two = FastPath::new().on(BlendThreads::new(2).expect("two threads"));
    assert_eq!(on_two.threads.used_for(n), 2, "a tube of {n} is blended on both threads");
    on_two.blend(skin, skin.shape(), Palette::Lbs(palette), &mut two.0, &mut two.1);
    assert!(two == one, "a tube of {n}: two threads streaming are not one thread's bits");
}
