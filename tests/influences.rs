//! Every influence a file gives, blended: the eight-influence fixture (`tests/common/eight.rs`), each
//! vertex on eight joints, against the glTF spec's formula recomputed here with all eight, on the
//! CPU (one thread and several, bit for bit), with dual quaternions and on the GPU; a ninth
//! influence keeps a model on the CPU; and how far the old rule, the four largest influences
//! renormalised, put the fixture's vertices.

use common::eight::{self, CLIP, EIGHT};
use common::{run, run_gl, scratch};
use glam::{DVec3, Mat4, Vec3A};
use serde_json::Value;
use skinning_fast::fast_path::FastPath;
use skinning_fast::lanes::Lanes;
use skinning_fast::parallel::BlendThreads;
use skinning_formats::gltf_import::{Imported, load_from_slice};
use skinning_method::blend::{Blend, Linear, blend};
use skinning_method::clip::Clip;
use skinning_method::frame::{Frame, Pose};
use skinning_method::inspect::{Report, inspect};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Reference};
use skinning_method::model::Model;

/// How far a position (relative to the model's size) or a normal may be from the spec's: f32
/// rounding, and the GPU's.
const TOLERANCE: f64 = 1e-5;

/// The times the tests look at: the rest pose, the clip's middle, near its end.
const TIMES: [f64; 4] = [0.0, 0.3, 0.55, 0.95];

fn loaded(weights: &[u32]) -> Imported {
    let bytes = eight::with_weights(weights).glb();
    load_from_slice(&bytes, None).expect("the fixture loads")
}

fn dvec(p: Vec3A) -> DVec3 {
    DVec3::new(p.x as f64, p.y as f64, p.z as f64)
}

/// One frame of `clip` at `t` blended by `method` on the program's fast path (`FastPath::new()`:
/// the best lanes, one thread), normals included; the skinner, which keeps what it made.
fn on_the_fast_path(
    pose: &mut Pose,
    model: &Model,
    clip: &Clip,
    t: f64,
    method: Method,
) -> ByMethod<FastPath> {
    let mut by = ByMethod::new(method, FastPath::new());
    pose.run(model, Frame { blending: by.ending(), ..Frame::new(clip, t) })
        .expect("the joints only turn and move");
    by
}

#[test]
fn the_fixture_in_the_repository_is_the_one_the_tests_build() {
    // `tests/eight-influences.gltf` is there to be opened in the program (chapter 13); it must be
    // the fixture these tests check. To write it again:
    // SKINNING_WRITE_FIXTURE=1 cargo test --test influences the_fixture
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eight-influences.gltf");
    let built = eight::eight().embedded();
    if std::env::var_os("SKINNING_WRITE_FIXTURE").is_some() {
        std::fs::write(&path, &built).expect("tests/ is writable");
    }
    let stored = std::fs::read(&path).expect("tests/eight-influences.gltf is in the repository");
    assert!(
        stored == built,
        "tests/eight-influences.gltf differs from tests/common/eight.rs: write it again"
    );
}

#[test]
fn the_skin_keeps_every_influence_in_the_files_order() {
    let imported = loaded(&EIGHT);
    assert!(imported.notes.is_empty(), "nothing to mend or leave out: {:?}", imported.notes);
    let skin = &imported.model.skin;
    assert_eq!(skin.most_influences(), 8);
    for v in 0..skin.len() {
        let got: Vec<(usize, f64)> = skin.influences(v).map(|i| (i.joint, i.weight as f64)).collect();
        assert_eq!(got, eight::influences(v, &EIGHT), "vertex {v}");
        // Four in the vertex's slots, four beside them.
        assert_eq!((skin.slots_used()[v], skin.extras_of(v..v + 1).len()), (4, 4), "vertex {v}");
    }
}

#[test]
fn eight_influences_blend_exactly_on_the_cpu_and_the_old_rule_did_not() {
    let imported = loaded(&EIGHT);
    let (model, clip) = (&imported.model, &imported.clips[0]);
    assert_eq!(clip.name, CLIP);
    let size = eight::size();
    // The readable loops (`Reference`, normals included) and the program's fast path.
    let (mut pose, mut fast) = (Pose::new(model), Pose::new(model));
    let (mut worst, mut worst_normal, mut four_off) = (0.0f64, 0.0f64, (0.0f64, 0, 0.0));
    let mut moved = 0.0f64;
    for t in TIMES {
        common::update_with_normals(&mut pose, model, clip, t);
        on_the_fast_path(&mut fast, model, clip, t, Method::Lbs);
        for v in 0..model.skin.len() {
            let all = eight::influences(v, &EIGHT);
            let spec = eight::blend(v, &all, t);
            for pose in [&pose, &fast] {
                worst = worst.max(dvec(pose.skinned[v]).distance(spec) / size);
                let normal = eight::normal(v, &all, t);
                worst_normal = worst_normal.max(dvec(pose.normals[v]).distance(normal));
            }
            moved = moved.max(spec.distance(DVec3::from(eight::BIND[v].map(f64::from))));
            // The old rule: the four largest, renormalised. How far from the spec that put it.
            let off = eight::blend(v, &eight::four_largest(&all), t).distance(spec);
            if off > four_off.0 {
                four_off = (off, v, t);
            }
        }
    }
    assert!(moved > 0.1 * size, "the clip moves the fan ({moved})");
    assert!(worst <= TOLERANCE, "every influence blended: {worst:e} of the model's size from the spec");
    assert!(worst_normal <= TOLERANCE, "normals by the rule, every influence: {worst_normal:e} off");
    let (off, v, t) = four_off;
    println!(
        "eight influences: the blend is at most {worst:.1e} of the model's size from the spec; the four \
         largest alone put vertex {v} {off:.4} from it at {t} s, {:.1}% of the model's size ({size:.4})",
        100.0 * off / size
    );
    // What the fixture is for: the old rule is visibly wrong here, the blend is not.
    assert!(off / size > 1e-2, "the four largest would be off by {off}");
}

#[test]
fn all_threads_blend_every_influence_bit_for_bit_as_one() {
    let imported = loaded(&EIGHT);
    let (model, clip) = (&imported.model, &imported.clips[0]);
    let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
    // First the readable loop on two threads, then the lanes on the same threads.
    let mut on_two = FastPath { lanes: None, threads };
    let mut pose = Pose::new(model);
    let (skin, n) = (&model.skin, model.skin.len());
    let zeros = || (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    let (mut one, mut many) = (zeros(), zeros());
    for method in [Method::Lbs, Method::Dqs] {
        // The fast path (`lanes.rs`) on one thread, as the program runs it.
        let by = on_the_fast_path(&mut pose, model, clip, 0.55, method);
        let palette = by.palette(method, &pose.palette).expect("the frame blended by it");
        // The readable loops, on one thread and on two.
        on_two.lanes = None;
        Reference.blend(skin, skin.shape(), palette, &mut one.0, &mut one.1);
        on_two.blend(skin, skin.shape(), palette, &mut many.0, &mut many.1);
        assert_eq!(many, one, "{method:?}: the readable loop on two threads");
        // The fast path on two threads: the one thread's bits.
        on_two.lanes = Some(Lanes::best());
        on_two.blend(skin, skin.shape(), palette, &mut many.0, &mut many.1);
        assert_eq!(
            (&many.0, &many.1),
            (&pose.skinned, &pose.normals),
            "{method:?}: the fast path on two threads"
        );
    }
}

#[test]
fn the_inspector_shows_every_influence_and_sums_to_the_blend() {
    for weights in [&EIGHT[..], &[23, 16, 8, 6, 4, 3, 2, 1, 1]] {
        let imported = loaded(weights);
        let model = &imported.model;
        let mut pose = Pose::new(model);
        on_the_fast_path(&mut pose, model, &imported.clips[0], 0.3, Method::Lbs);
        let mut blended = vec![Vec3A::ZERO; model.skin.len()];
        blend(&model.skin, &pose.palette, &mut blended);
        for (v, blended) in blended.iter().enumerate() {
            let i = inspect(&model.skin, model.skin.bind(), &pose.palette, v);
            let shown: Vec<(usize, f64)> =
                i.candidates().iter().map(|c| (c.joint, c.weight as f64)).collect();
            assert_eq!(shown, eight::influences(v, weights), "vertex {v}");
            assert_eq!(i.blended, (*blended).into(), "vertex {v}: the blend's own number");
            // The position drawn comes from the fast path (`lanes.rs`), a rounding away.
            let drawn = pose.skinned[v].distance(i.blended.into()) as f64 / eight::size();
            assert!(drawn <= 1e-6, "vertex {v}: drawn {drawn:e} of the size from the inspector's");
            // The table the program prints: a line per influence, each naming its joint's bone.
            let table = Report { inspection: &i, model }.to_string();
            assert!(table.contains(&format!("{} influences", weights.len())), "{table}");
            for (joint, _) in eight::influences(v, weights) {
                assert_eq!(table.matches(&format!("joint{joint} ")).count(), 1, "{table}");
            }
        }
    }
}

/// The program's `--dump` of the fixture, with `extra` flags, at [`TIMES`]: None without EGL for
/// the GPU.
fn dump(model: &std::path::Path, name: &str, extra: &[&str]) -> Option<Value> {
    let out = model.with_file_name(format!("{name}.json"));
    let mut frames = Vec::new();
    for t in TIMES {
        let args = ["--model", model.to_str().unwrap(), "--dump", out.to_str().unwrap(), "--time"];
        let time = t.to_string();
        let args = [&args[..], &[&time, "--frames", "1"], extra].concat();
        if extra.contains(&"gpu") {
            run_gl(&args)?;
        } else {
            let ran = run(&args);
            assert!(ran.status.success(), "{args:?}: {}", String::from_utf8_lossy(&ran.stderr));
        }
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let skinning = if extra.contains(&"gpu") { "gpu" } else { "cpu" };
        assert_eq!(file["skinning"], skinning, "{name}: blended where it was asked to be");
        frames.push(file["frames"][0].clone());
        if t == TIMES[0] {
            // Every influence of every vertex is in the file, for a learner to redo the blend.
            for (v, vertex) in file["vertices"].as_array().unwrap().iter().enumerate() {
                let written: Vec<(usize, f64)> = (vertex["influences"].as_array().unwrap().iter())
                    .map(|i| (i["joint"].as_u64().unwrap() as usize, i["weight"].as_f64().unwrap()))
                    .collect();
                assert_eq!(written, eight::influences(v, &EIGHT), "{name}: vertex {v}'s influences");
            }
        }
    }
    Some(Value::Array(frames))
}

fn xyz(v: &Value) -> DVec3 {
    let a: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    DVec3::new(a[0], a[1], a[2])
}

#[test]
fn the_program_blends_every_influence_on_the_cpu_and_the_gpu_by_both_methods() {
    let dir = scratch("eight-influences");
    let path = dir.join("eight.glb");
    std::fs::write(&path, eight::eight().glb()).unwrap();
    let size = eight::size();
    for (skinning, method) in [("cpu", "lbs"), ("cpu", "dqs"), ("gpu", "lbs"), ("gpu", "dqs")] {
        let name = format!("{skinning}-{method}");
        let Some(frames) = dump(&path, &name, &["--skinning", skinning, "--method", method]) else { return };
        let (mut worst, mut worst_normal) = (0.0f64, 0.0f64);
        for (frame, t) in frames.as_array().unwrap().iter().zip(TIMES) {
            for v in 0..eight::BIND.len() {
                let all = eight::influences(v, &EIGHT);
                let (position, normal) = match method {
                    "lbs" => (eight::blend(v, &all, t), eight::normal(v, &all, t)),
                    _ => eight::dqs(v, &all, t),
                };
                worst = worst.max(xyz(&frame["skinned"][v]).distance(position) / size);
                worst_normal = worst_normal.max(xyz(&frame["normals"][v]).distance(normal));
            }
        }
        println!(
            "{name}: positions {worst:.1e} of the model's size from the spec, normals {worst_normal:.1e}"
        );
        assert!(worst <= TOLERANCE && worst_normal <= TOLERANCE, "{name}: {worst:e}, {worst_normal:e}");
    }
}

#[test]
fn a_ninth_influence_keeps_the_model_on_the_cpu_said_in_one_line() {
    let dir = scratch("nine-influences");
    let path = dir.join("nine.glb");
    let nine = [23, 16, 8, 6, 4, 3, 2, 1, 1];
    std::fs::write(&path, eight::with_weights(&nine).glb()).unwrap();
    let model = path.to_str().unwrap();
    let info = run(&["--model", model, "--info"]);
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(
        info.contains(
            "influences: at most 9 on one vertex; 5 vertices have more than 4, and every influence \
             blends; GPU skinning takes 8, so this model is skinned on the CPU"
        ),
        "{info}"
    );
    // The CPU blends all nine.
    let out = dir.join("cpu.json");
    let ran = run(&["--model", model, "--time", "0.55", "--dump", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    for v in 0..eight::BIND.len() {
        let spec = eight::blend(v, &eight::influences(v, &nine), 0.55);
        let got = xyz(&file["frames"][0]["skinned"][v]);
        assert!(got.distance(spec) <= TOLERANCE * eight::size(), "vertex {v}: {got} vs {spec}");
    }
    // The GPU is refused, in one line, before any OpenGL is needed.
    for refused in [
        &["--skinning", "gpu", "--dump", out.to_str().unwrap()][..],
        &["--skinning", "gpu", "--headless", "--frames", "1"],
    ] {
        let ran = run(&[&["--model", model][..], refused].concat());
        let err = String::from_utf8_lossy(&ran.stderr);
        assert!(!ran.status.success(), "{refused:?} must be refused");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("at most 8 influences a vertex") && err.contains("has 9"), "{err}");
    }
}

#[test]
fn a_skin_with_no_vertex_past_four_has_nothing_beside_its_slots() {
    // The article's scene: the second pass finds nothing to do, and the blend equals the slots alone.
    let model = skinning_method::scene::article().expect("the article's scene");
    assert_eq!(model.skin.most_influences(), 2);
    assert!(model.skin.extras_of(0..model.skin.len()).is_empty());
    let palette = vec![Mat4::from_rotation_z(0.3); model.skin.joints().len()];
    let mut whole = vec![Vec3A::ZERO; model.skin.len()];
    blend(&model.skin, &palette, &mut whole);
    let slots: Vec<Vec3A> = (model.skin.vertex_influences().iter().zip(model.skin.bind()))
        .map(|(v, &p)| Linear(&palette).position(v, &[], p))
        .collect();
    assert_eq!(whole, slots);
}
