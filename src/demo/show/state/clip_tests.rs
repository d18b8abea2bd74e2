//! The demo's clips and what they show, tested without a window: picking a clip or a model's
//! animation, names from files escaped, framing per clip, the lit surface and the normals.

use super::tests::demo;
use super::*;
use skinning::camera::framing_model;

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
    let clips = skinning_method::scene::clips().expect("valid");
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
    let model = skinning_method::scene::article().expect("valid");
    let mut clips = skinning_method::scene::clips().expect("valid");
    clips[0].name = NAME.into();
    // `--clip` takes the name as it is in the clip.
    let mut d = Demo::new(model, clips, &Options { clip: NAME.into(), ..Options::default() }).expect("valid");
    d.update();
    let title = d.title(60.0);
    let words = d.scene(640, 480, 1.0).words.expect("text is on");
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
    let model = skinning_method::scene::article().expect("the article's scene is valid");
    let clips = skinning_method::scene::clips().expect("the article's clips are valid");
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

#[test]
fn a_screenshot_during_a_crossfade_is_named_by_the_pictures_time() {
    // twist cut to a second: in step with bend (4 s), the blend's clips run at the shared cycle's
    // speed, so bend's own time is no longer the clock's wrapped into its length.
    let model = skinning_method::scene::article().expect("valid");
    let mut clips = skinning_method::scene::clips().expect("valid");
    clips[2].duration = 1.0;
    let mut d = Demo::new(model, clips, &Options { time: 3.0, ..Options::default() }).expect("valid");
    d.key("f");
    for time in [3.2, 3.3] {
        d.clock.time = time;
        d.update();
    }
    let shown = d.mixing.current_time();
    let clock = d.clip().wrap(d.clock.time);
    assert!((shown - clock).abs() > 1e-3, "the test needs the two times apart: {shown} {clock}");
    assert!(d.title(60.0).contains(&format!("t {shown:.2} s")), "{}", d.title(60.0));
    assert_eq!(d.screenshot_name(), format!("skinning-bend-{shown:.3}s.png"));
}
