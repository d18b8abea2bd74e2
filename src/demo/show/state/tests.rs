//! The demo's state under keys and the mouse, tested without a window.

use super::*;
use crate::demo::show::clock::STEP;
use crate::demo::show::skinned::Blend;
use std::time::Duration;

fn demo() -> Demo {
    let model = skinning::scene::article().expect("the article's scene is valid");
    let clips = skinning::scene::clips().expect("the article's clips are valid");
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
    assert_eq!(d.key("q"), Reply::Nothing);
}

#[test]
fn g_cycles_the_skinning_and_the_frame_follows() {
    let mut d = demo();
    let drawn = |d: &Demo| {
        let f = d.frame(640, 480, 1.0).skinned;
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
    assert_eq!(d.skinned.method, Blend::Lbs);
    assert_eq!(d.key("d"), Reply::Changed);
    assert_eq!(d.skinned.method, Blend::Dqs);
    assert!(d.title(60.0).contains("cpu skinning, dqs"), "{}", d.title(60.0));
    // Alone, the DQS mesh is orange; compared, it has its own orange layer over the red one.
    assert_eq!(d.take_colors().map(|c| c.skinned[0]), Some(colors::ORANGE));
    d.key("d");
    assert_eq!(d.skinned.method, Blend::Both);
    let f = d.frame(640, 480, 1.0).skinned;
    assert!(f.cpu.is_some() && f.cpu_compared.is_some());
    assert_eq!(d.take_colors().map(|c| c.skinned[0]), Some(colors::RED));
    d.key("d");
    assert_eq!(d.skinned.method, Blend::Lbs);
}

#[test]
fn a_frame_dqs_cannot_skin_falls_back_to_lbs_once_with_the_reason() {
    let mut d = demo();
    d.key("d");
    // bone31's offset stretches it to twice its height (a file's inverse bind matrix could):
    // no dual quaternion holds that.
    let mut joints = d.model.skin.joints().to_vec();
    joints[skinning::scene::BONE31].offset *= glam::Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
    let mut skin = skinning::skin::Skin::new(joints);
    for v in d.model.skin.vertices() {
        let influences: Vec<_> = v.influences().collect();
        skin.add_vertex(v.bind.into(), &influences).expect("the same vertices");
    }
    d.model.skin = skin;
    d.update();
    assert_eq!(d.skinned.method, Blend::Lbs);
    let reason = d.skinned.fallback.take().expect("the reason");
    assert!(reason.contains("bone31") && !reason.contains('\n'), "{reason}");
    d.update();
    assert!(d.skinned.fallback.is_none(), "said once");
    // And D now refuses with the same reason.
    assert!(matches!(d.key("d"), Reply::Refused(why) if why.contains("bone31")));
    // Starting with --method dqs on such a model is refused outright.
    let options = Options { method: Blend::Dqs, ..Options::default() };
    let clips = skinning::scene::clips().expect("clips");
    let err = Demo::new(d.model.clone(), clips, &options).err().expect("refused");
    assert!(err.contains("bone31") && !err.contains("switching"), "{err}");
}

#[test]
fn dragging_around_a_joint_bends_that_bone_and_reset_undoes_it() {
    let mut d = demo();
    let size = (640, 480);
    let bone2 = skinning::scene::BONE2;
    let joint = d.view.camera.project(d.joints[bone2], size.0, size.1);
    let tip_before = d.joints[skinning::scene::BONE31];
    assert!(d.start_bend(joint + Vec2::new(1.0, 0.0), size, 12.0));
    // Start right of the joint, end above it: a quarter turn counter-clockwise.
    d.drag_bend(joint + Vec2::new(40.0, 0.0));
    d.drag_bend(joint + Vec2::new(0.0, -40.0));
    d.end_bend();
    let tip = d.joints[skinning::scene::BONE31] - d.joints[bone2];
    let before = tip_before - d.joints[bone2];
    // bone31 sat at (+0.2, +0.1) from bone2; a quarter turn puts it at (-0.1, +0.2).
    assert!((tip - Vec3::new(-before.y, before.x, 0.0)).length() < 1e-4, "{tip}");
    d.key("r");
    assert!((d.joints[skinning::scene::BONE31] - tip_before).length() < 1e-6);
}

#[test]
fn v_steps_through_the_vertices_and_n_toggles_the_names() {
    let mut d = demo();
    assert!(d.frame(640, 480, 1.0).inspection.is_none());
    d.key("v");
    d.key("v");
    let inspection = d.frame(640, 480, 1.0).inspection.expect("vertex 1 inspected");
    assert_eq!((d.selection.vertex, inspection.vertex), (Some(1), 1));
    for _ in 0..d.model.skin.len() - 1 {
        d.key("v");
    }
    assert_eq!(d.selection.vertex, None, "past the last vertex, back to none");
    assert!(d.frame(640, 480, 1.0).words.expect("text is on").names);
    d.key("n");
    assert!(!d.frame(640, 480, 1.0).words.expect("text is on").names);
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
    let model = skinning::scene::article().expect("the article's scene");
    let clips = skinning::scene::clips().expect("the article's clips");
    let options = Options { inspect: Some(12), text: false, ..Options::default() };
    let mut d = Demo::new(model.clone(), clips.clone(), &options).expect("vertex 12 exists");
    assert!(d.frame(640, 480, 1.0).words.is_none(), "--no-text");
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
    let words = d.frame(640, 480, 2.0).words.expect("text is on");
    assert!(
        words.status.starts_with("clip seed  t 0.00 s  1x  paused  lbs on gpu  pose "),
        "{}",
        words.status
    );
    assert!(words.status.ends_with("frame 0.25 ms") && words.scale == 2.0, "{}", words.status);
}

#[test]
fn number_keys_pick_a_clip_and_c_steps_through_them() {
    let mut d = demo();
    assert_eq!((d.key("2"), d.clip().name.as_str()), (Reply::Changed, "bend"));
    assert_eq!(d.key("c"), Reply::Changed);
    assert_eq!(d.clip().name, "twist");
    d.key("C");
    assert_eq!(d.clip().name, "seed", "C goes round");
    // The article has three clips: 4 is refused with a reason, and nothing changes.
    let Reply::Refused(why) = d.key("4") else { panic!("4 should be refused") };
    assert!(why.contains("3") && why.contains('C'), "{why}");
    assert_eq!(d.clip().name, "seed");
}

#[test]
fn a_model_starts_on_the_animation_asked_for() {
    let clips = skinning::scene::clips().expect("valid");
    let model_options = |animation: Option<&str>| Options {
        model: Some("model.glb".into()),
        animation: animation.map(str::to_string),
        ..Options::default()
    };
    assert_eq!(model_options(None).clip_index(&clips), Ok(0), "the first by default");
    assert_eq!(model_options(Some("twist")).clip_index(&clips), Ok(2));
    assert_eq!(model_options(Some("1")).clip_index(&clips), Ok(1));
    let err = model_options(Some("3")).clip_index(&clips).expect_err("no animation 3");
    assert!(err.contains("seed, bend, twist") && err.contains("0 to 2"), "{err}");
    // Without a model, --clip decides (default bend).
    assert_eq!(Options::default().clip_index(&clips), Ok(1));
}

#[test]
fn a_clip_name_with_control_characters_reaches_the_title_and_corner_line_escaped() {
    const NAME: &str = "seed\u{1b}]0;owned\u{7}\n";
    let model = skinning::scene::article().expect("valid");
    let mut clips = skinning::scene::clips().expect("valid");
    clips[0].name = NAME.into();
    // `--clip` takes the name as it is in the clip.
    let mut d = Demo::new(model, clips, &Options { clip: NAME.into(), ..Options::default() }).expect("valid");
    d.update();
    let title = d.title(60.0);
    let words = d.frame(640, 480, 1.0).words.expect("text is on");
    for shown in [title.as_str(), words.status] {
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(shown.contains("clip seed\\u{1b}]0;owned\\u{7}\\n"), "{shown:?}");
    }
    // The inspector's first line names the clip too.
    d.selection.vertex = Some(0);
    let report = d.report().expect("a vertex is inspected");
    assert!(report.lines().all(|l| !l.chars().any(char::is_control)), "{report:?}");
}

#[test]
fn a_model_is_framed_over_the_clip_that_plays_and_the_article_over_all_three() {
    let model = skinning::scene::article().expect("the article's scene is valid");
    let clips = skinning::scene::clips().expect("the article's clips are valid");
    let framed = |clips: &[Clip]| framing_model(&model, clips);
    // The article: its three clips at once, whichever plays.
    let mut article = demo();
    assert_eq!(article.view.camera, framed(&clips));
    article.key("c");
    assert_eq!(article.view.camera, framed(&clips));
    // The same numbers loaded as a model: the clip that plays, and the next one after C, seen as
    // the user turned the camera.
    let options =
        Options { model: Some("arm.glb".into()), camera: Some((30.0, 10.0, 1.5)), ..Options::default() };
    let mut d = Demo::new(model.clone(), clips.clone(), &options).expect("valid");
    let (seed, bend) = (framed(&clips[..1]), framed(&clips[1..2]));
    assert_ne!((seed.target, seed.extent), (bend.target, bend.extent), "the clips move the arm apart");
    assert_eq!((d.view.camera.target, d.view.camera.extent), (seed.target, seed.extent));
    let turned = (d.view.camera.yaw, d.view.camera.pitch, d.view.camera.zoom);
    d.key("c");
    assert_eq!((d.view.camera.target, d.view.camera.extent), (bend.target, bend.extent));
    assert_eq!((d.view.camera.yaw, d.view.camera.pitch, d.view.camera.zoom), turned);
    d.key("r");
    assert_eq!(
        (d.view.camera.target, d.view.camera.extent),
        (bend.target, bend.extent),
        "R: this clip's home"
    );
}

#[test]
fn l_lights_a_mesh_with_triangles_and_o_shows_the_normals() {
    let mut d = demo();
    // The article's outline has no triangles: no surface, by default or by L.
    assert!(!d.view.show_surface && !d.shown().surface);
    assert!(matches!(d.key("l"), Reply::Refused(why) if why.contains("no triangles")));
    // O: a line per vertex, two ends each, starting at the skinned vertex.
    assert!(d.normal_lines.is_empty());
    d.key("o");
    assert!(d.shown().normal_lines);
    assert_eq!(d.normal_lines.len(), 2 * d.model.skin.len());
    assert_eq!(d.normal_lines[0], d.pose.skinned[0]);
    d.key("o");
    assert!(d.normal_lines.is_empty());
    let err =
        Demo::new(d.model.clone(), d.clips.clone(), &Options { surface: Some(true), ..Options::default() });
    assert!(err.err().is_some_and(|e| e.starts_with("--surface on: this mesh has no triangles")));
}
