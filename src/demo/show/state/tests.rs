//! The demo's state under keys and the mouse, tested without a window.

use super::*;
use crate::demo::cli::choices::Methods;
use crate::demo::show::clock::STEP;
use glam::Vec2;
use std::time::Duration;

impl Demo {
    /// The demo of a `model` without morph targets: the tests' shorthand for [`Demo::with_morphs`].
    pub fn new(model: Model, clips: impl Into<Arc<[Clip]>>, options: &Options) -> Result<Demo, String> {
        Demo::with_morphs(model, MorphTargets::default(), clips, options)
    }
}

pub fn demo() -> Demo {
    let model = skinning_method::scene::article().expect("the article's scene is valid");
    let clips = skinning_method::scene::clips().expect("the article's clips are valid");
    Demo::new(model, clips, &Options { clip: "seed".into(), ..Options::default() })
        .expect("defaults are valid")
}

#[test]
fn keys_change_the_state() {
    let mut d = demo();
    assert_eq!(d.key(" "), Reply::Changed);
    assert!(d.clock.paused);
    d.key(".");
    assert!((d.clock.time - STEP).abs() < 1e-12);
    d.key("]");
    d.key("+");
    d.key("+");
    assert_eq!(d.clock.speed, 4.0);
    for _ in 0..10 {
        d.key("-");
    }
    assert_eq!(d.clock.speed, 0.125);
    d.key("3");
    assert_eq!(d.clip().name, "twist");
    d.key("w");
    d.key("w");
    assert_eq!(d.view.weight_bone, Some(1));
    d.key("r");
    assert_eq!((d.clock.time, d.clock.speed), (0.0, 1.0));
    assert_eq!(d.key("p"), Reply::Screenshot);
    assert_eq!(d.key("x"), Reply::Nothing);
}

#[test]
fn g_cycles_the_skinning_and_the_frame_follows() {
    let mut d = demo();
    let drawn = |d: &Demo| {
        let f = d.scene(640, 480, 1.0).skinned;
        (f.cpu.is_some(), f.gpu.is_some(), f.gpu_color)
    };
    assert_eq!((d.skinned.skinning, drawn(&d)), (Skinning::Cpu, (true, false, None)));
    d.key("g");
    assert_eq!((d.skinned.skinning, drawn(&d)), (Skinning::Gpu, (false, true, None)));
    assert!(d.title(60.0).contains("gpu skinning"), "{}", d.title(60.0));
    d.key("g");
    assert_eq!((d.skinned.skinning, drawn(&d)), (Skinning::Both, (true, true, Some(colors::MAGENTA))));
    d.key("g");
    assert_eq!(d.skinned.skinning, Skinning::Cpu);
}

#[test]
fn d_cycles_the_method_and_colours_and_title_follow() {
    let mut d = demo();
    d.key("3");
    d.take_colors();
    assert_eq!(d.skinned.method, Methods::Lbs);
    assert_eq!(d.key("d"), Reply::Changed);
    assert_eq!(d.skinned.method, Methods::Dqs);
    assert!(d.title(60.0).contains("cpu skinning, dqs"), "{}", d.title(60.0));
    // Alone, the DQS mesh is orange; compared, it has its own orange layer over the red one.
    assert_eq!(d.take_colors().map(|c| c.skinned[0]), Some(colors::ORANGE));
    d.key("d");
    assert_eq!(d.skinned.method, Methods::Both);
    let f = d.scene(640, 480, 1.0).skinned;
    assert!(f.cpu.is_some() && f.cpu_compared.is_some());
    assert_eq!(d.take_colors().map(|c| c.skinned[0]), Some(colors::RED));
    d.key("d");
    assert_eq!(d.skinned.method, Methods::Lbs);
}

#[test]
fn a_frame_dqs_cannot_skin_falls_back_to_lbs_once_with_the_reason() {
    let mut d = demo();
    d.key("d");
    // bone31's offset stretches it to twice its height (a file's inverse bind matrix could):
    // no dual quaternion holds that.
    let mut joints = d.model.skin.joints().to_vec();
    joints[skinning_method::scene::BONE31].offset *= glam::Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
    let mut skin = skinning_method::skin::Skin::new(joints);
    for (i, &p) in d.model.skin.bind().iter().enumerate() {
        let influences: Vec<_> = d.model.skin.influences(i).collect();
        skin.add_vertex(p.into(), &influences).expect("the same vertices");
    }
    d.model.skin = skin;
    d.update();
    assert_eq!(d.skinned.method, Methods::Lbs);
    let reason = d.skinned.fallback.take().expect("the reason");
    assert!(reason.contains("bone31") && !reason.contains('\n'), "{reason}");
    d.update();
    assert!(d.skinned.fallback.is_none(), "said once");
    // And D now refuses with the same reason.
    assert!(matches!(d.key("d"), Reply::Refused(why) if why.contains("bone31")));
    // Starting with --method dqs on such a model is refused outright.
    let options = Options { method: Methods::Dqs, ..Options::default() };
    let clips = skinning_method::scene::clips().expect("clips");
    let err = Demo::new(d.model.clone(), clips, &options).err().expect("refused");
    assert!(err.contains("bone31") && !err.contains("switching"), "{err}");
}

#[test]
fn dragging_around_a_joint_bends_that_bone_and_reset_undoes_it() {
    let mut d = demo();
    let size = (640, 480);
    let (bone1, bone2) = (skinning_method::scene::BONE1, skinning_method::scene::BONE2);
    let on_screen = |d: &Demo, b| d.view.camera.project(d.joints[b], size.0, size.1);
    let (joint, end) = (on_screen(&d, bone1), on_screen(&d, bone2));
    let tip_before = d.joints[skinning_method::scene::BONE31];
    let before = d.joints[bone2] - d.joints[bone1];
    assert!(d.start_bend(joint + Vec2::new(1.0, 0.0), size, 12.0));
    // bone1's far end, bone2's joint, is the lever's end: move the pointer by what takes that end
    // a quarter turn counter-clockwise on screen (pixel y points down), on a path through it.
    let lever = end - joint;
    let turned = Vec2::new(lever.y, -lever.x);
    d.drag_bend(joint + Vec2::new(1.0, 0.0) + (turned - lever) / 2.0);
    d.drag_bend(joint + Vec2::new(1.0, 0.0) + turned - lever);
    d.end_bend();
    let now = d.joints[bone2] - d.joints[bone1];
    // The article lies in the view's plane: a quarter turn about the view axis takes (x, y) to (-y, x).
    assert!((now - Vec3::new(-before.y, before.x, 0.0)).length() < 1e-4, "{now} from {before}");
    d.key("r");
    assert!((d.joints[skinning_method::scene::BONE31] - tip_before).length() < 1e-6);
}

#[test]
fn v_steps_through_the_vertices_and_n_toggles_the_names() {
    let mut d = demo();
    assert!(d.scene(640, 480, 1.0).inspection.is_none());
    d.key("v");
    d.key("v");
    let inspection = d.scene(640, 480, 1.0).inspection.expect("vertex 1 inspected");
    assert_eq!((d.selection.vertex, inspection.vertex), (Some(1), 1));
    for _ in 0..d.model.skin.len() - 1 {
        d.key("v");
    }
    assert_eq!(d.selection.vertex, None, "past the last vertex, back to none");
    assert!(d.scene(640, 480, 1.0).words.expect("text is on").names);
    d.key("n");
    assert!(!d.scene(640, 480, 1.0).words.expect("text is on").names);
}

#[test]
fn a_click_near_a_vertex_inspects_it_and_elsewhere_clears() {
    let mut d = demo();
    let size = (640, 480);
    let at = d.view.camera.project(d.pose.skinned[2].into(), size.0, size.1);
    d.click(at + Vec2::new(3.0, -2.0), size, 12.0);
    assert_eq!(d.selection.vertex, Some(2));
    d.click(Vec2::new(5.0, 470.0), size, 12.0);
    assert_eq!(d.selection.vertex, None);
    // On the GPU road the CPU has no skinned positions; the click still finds the vertex.
    d.key("g");
    d.pose.skinned.fill(glam::Vec3A::ZERO);
    d.click(at, size, 12.0);
    assert_eq!(d.selection.vertex, Some(2));
}

#[test]
fn numbers_are_printed_for_a_new_selection_and_a_new_paused_frame_only() {
    let mut d = demo();
    assert_eq!(d.take_report(), None, "nothing selected");
    d.key("v");
    let report = d.take_report().expect("a new selection");
    assert!(report.starts_with("inspect: clip seed at t 0.000 s, lbs on cpu\nvertex 0:"), "{report}");
    assert_eq!(d.take_report(), None, "printed once");
    d.key("]");
    assert_eq!(d.take_report(), None, "running: no table per frame");
    d.key(" ");
    assert!(d.take_report().is_some_and(|r| r.contains("at t 0.100 s")), "paused on a new frame");
    d.key(".");
    assert!(d.take_report().is_some(), "a step while paused");
    d.key("b");
    assert_eq!(d.take_report(), None, "hiding a layer changes no number");
    d.key("3");
    assert!(d.take_report().is_some_and(|r| r.contains("clip twist")), "another clip while paused");
}

#[test]
fn inspect_and_no_text_come_from_the_command_line() {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let options = Options { inspect: Some(12), text: false, ..Options::default() };
    let mut d = Demo::new(model.clone(), clips.clone(), &options).expect("vertex 12 exists");
    assert!(d.scene(640, 480, 1.0).words.is_none(), "--no-text");
    assert!(d.take_report().is_some_and(|r| r.contains("vertex 12:")), "--inspect prints at once");
    let err = Demo::new(model, clips, &Options { inspect: Some(13), ..Options::default() })
        .err()
        .expect("13 vertices: 0 to 12");
    assert!(err.contains("0 to 12"), "{err}");
}

#[test]
fn the_corner_line_follows_the_state() {
    let mut d = demo();
    d.status.frame = Some(Duration::from_micros(250));
    d.key(" ");
    d.key("g");
    let words = d.scene(640, 480, 2.0).words.expect("text is on");
    assert!(
        words.status.starts_with("clip seed  t 0.00 s  1x  paused  lbs on gpu  pose "),
        "{}",
        words.status
    );
    assert!(words.status.ends_with("frame 0.25 ms") && words.scale == 2.0, "{}", words.status);
}
