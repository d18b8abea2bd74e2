//! The demo's layers without a window: what the flags build, and what F, Y, J and K do, on the
//! article's scene (its clips seed, bend and twist, 4 s each) and on clips of other lengths.

use super::*;
use crate::demo::cli::layers::{Added, FadeTo, LayerFlags, Masked, Reference, Weighted};
use crate::demo::show::state::{Demo, Reply};
use skinning_method::frame::Source;
use skinning_method::mixer::additive::Against;
use skinning_method::scene;
use skinning_method::transform::Trs;

fn article() -> (Model, Arc<[Clip]>) {
    (scene::article().expect("valid"), scene::clips().expect("valid").into())
}

/// The frame's step 1 alone: the layers moved to `time`, then their pose there into `local`.
/// Returns the clip that plays (a crossfade ends on a new one).
fn animate(mixing: &mut Mixing, model: &Model, time: f64, local: &mut [Trs]) -> usize {
    mixing.mixer.advance_to(time);
    mixing.mixer.pose(&model.skeleton, time, local);
    mixing.current()
}

fn weighted(pairs: &[(&str, f32)]) -> Vec<Weighted> {
    pairs.iter().map(|&(clip, weight)| Weighted { clip: clip.into(), weight }).collect()
}

fn with(layers: LayerFlags) -> Options {
    Options { layers, ..Options::default() }
}

fn weights(mixing: &Mixing) -> Vec<(usize, f32)> {
    mixing.mixer.layers.iter().map(|l| (l.clip, l.weight)).collect()
}

#[test]
fn the_flags_make_blend_then_masked_then_additive_layers() {
    let (model, clips) = article();
    let layers = LayerFlags {
        blend: weighted(&[("twist", 0.25), ("seed", 0.75)]),
        additive: vec![Added { clip: "bend".into(), weight: 0.6, reference: Reference::Start }],
        mask: vec![Masked { clip: "seed".into(), bone: "bone2".into(), weight: 0.5 }],
        ..LayerFlags::default()
    };
    let mixing = Mixing::new(&model, &[], &clips, &with(layers)).expect("valid");
    let kinds: Vec<_> = mixing.mixer.layers.iter().map(|l| (l.kind.name(), l.clip, l.weight)).collect();
    assert_eq!(kinds, [("blend", 2, 0.25), ("blend", 0, 0.75), ("mask", 0, 0.5), ("additive", 1, 0.6)]);
    assert_eq!(mixing.current(), 2, "the first --blend clip plays");
    assert!(!mixing.mixer.sync, "--blend without --sync: each at the same time");
    // Without --blend, the one clip --clip picks, and the window's blends in step.
    let plain = Mixing::new(&model, &[], &clips, &Options::default()).expect("valid");
    assert_eq!((weights(&plain), plain.mixer.sync), (vec![(1, 1.0)], true));
}

#[test]
fn a_wrong_clip_or_bone_is_one_line_with_the_choices() {
    let (model, clips) = article();
    let blend = LayerFlags { blend: weighted(&[("walk", 1.0)]), ..LayerFlags::default() };
    let err = Mixing::new(&model, &[], &clips, &with(blend)).err().expect("no clip walk");
    assert_eq!(
        err,
        "unknown clip \"walk\" for --blend: choose one of seed, bend, twist (or an index, 0 to 2)"
    );
    let mask = LayerFlags {
        mask: vec![Masked { clip: "twist".into(), bone: "bone9".into(), weight: 1.0 }],
        ..LayerFlags::default()
    };
    let err = Mixing::new(&model, &[], &clips, &with(mask)).err().expect("no bone9");
    assert_eq!(
        err,
        "unknown bone \"bone9\" for --mask: choose one of root, bone1, bone2, bone31, bone32 (or an index, 0 \
         to 4)"
    );
    let twice = LayerFlags { blend: weighted(&[("bend", 1.0), ("bend", 2.0)]), ..LayerFlags::default() };
    assert!(Mixing::new(&model, &[], &clips, &with(twice)).err().is_some_and(|e| e.contains("twice")));
    // A model's clips by index, as --animation takes them.
    let options = Options {
        model: Some("arm.glb".into()),
        layers: LayerFlags {
            additive: vec![Added { clip: "2".into(), weight: 1.0, reference: Reference::Start }],
            ..LayerFlags::default()
        },
        ..Options::default()
    };
    let mixing = Mixing::new(&model, &[], &clips, &options).expect("valid");
    assert_eq!(weights(&mixing), [(0, 1.0), (2, 1.0)]);
}

#[test]
fn f_fades_linearly_to_the_next_clip_then_plays_it_alone() {
    let (model, clips) = article();
    let mut mixing = Mixing::new(&model, &[], &clips, &Options::default()).expect("valid");
    let mut trs = vec![Trs::IDENTITY; model.skeleton.len()];
    animate(&mut mixing, &model, 1.0, &mut trs);
    mixing.crossfade(1.0).expect("three clips");
    for (time, bend, twist) in [(1.0, 1.0, 0.0), (1.125, 0.75, 0.25), (1.25, 0.5, 0.5), (1.45, 0.1, 0.9)] {
        assert_eq!(animate(&mut mixing, &model, time, &mut trs), 1, "bend plays until the end");
        let w = weights(&mixing);
        assert!((w[0].1 - bend).abs() < 1e-6 && (w[1].1 - twist).abs() < 1e-6, "at {time}: {w:?}");
    }
    let mut rows = String::new();
    let bones: Vec<String> = model.skeleton.bones().iter().map(|b| b.name.clone()).collect();
    mixing.write_rows(&mut rows, &["seed".into(), "bend".into(), "twist".into()], &bones, 1.45);
    assert_eq!(
        rows,
        "\nblend 0.10 bend  t 1.45 s  in step\nblend 0.90 twist  t 1.45 s  in step\nfade to twist  90% of 0.5 s"
    );
    // Over at 1.5 s: twist alone; F again fades on to seed.
    assert_eq!(animate(&mut mixing, &model, 1.5, &mut trs), 2);
    assert_eq!(weights(&mixing), [(2, 1.0)]);
    assert_eq!(mixing.next(clips.len()), 0);
}

#[test]
fn blend_weights_near_the_float_limit_fade_and_shift_as_halves() {
    // --blend bend=3e38,twist=3e38: their f32 sum is infinite, which made both shares 0.
    let (model, clips) = article();
    let huge = LayerFlags { blend: weighted(&[("bend", 3e38), ("twist", 3e38)]), ..LayerFlags::default() };
    let mut mixing = Mixing::new(&model, &[], &clips, &with(huge.clone())).expect("valid");
    let mut trs = vec![Trs::IDENTITY; model.skeleton.len()];
    mixing.crossfade(1.0).expect("three clips");
    // F goes to twist, the second: a quarter of the way, bend's half has fallen by a quarter.
    animate(&mut mixing, &model, 1.125, &mut trs);
    assert_eq!(weights(&mixing), [(1, 0.375), (2, 0.625)]);
    // K from halves: a tenth more to twist.
    let mut mixing = Mixing::new(&model, &[], &clips, &with(huge)).expect("valid");
    mixing.shift(true).expect("K");
    assert_eq!(weights(&mixing), [(1, 0.4), (2, 0.6)]);
}

#[test]
fn a_crossfade_in_step_starts_the_next_clip_at_the_same_phase() {
    let (model, clips) = article();
    let mut clips = clips.to_vec();
    clips[2].duration = 1.0; // twist cut to a second: a clip of another length
    let clips: Arc<[Clip]> = clips.into();
    let mut mixing = Mixing::new(&model, &[], &clips, &Options::default()).expect("valid");
    let mut trs = vec![Trs::IDENTITY; model.skeleton.len()];
    animate(&mut mixing, &model, 3.0, &mut trs);
    mixing.crossfade(3.0).expect("three clips");
    animate(&mut mixing, &model, 3.0, &mut trs);
    // bend is at 3 s of 4: phase 0.75; twist starts at 0.75 of its one second.
    let (bend, twist) = (mixing.mixer.layers[0].time, mixing.mixer.layers[1].time);
    assert!((bend - 3.0).abs() < 1e-5 && (twist - 0.75).abs() < 1e-5, "{bend} and {twist}");
    // Y: not in step, each at the clock's time.
    mixing.toggle_sync();
    animate(&mut mixing, &model, 3.1, &mut trs);
    let (bend, twist) = (mixing.mixer.layers[0].time, mixing.mixer.layers[1].time);
    assert!((bend - 3.1).abs() < 1e-5 && (twist - 0.1).abs() < 1e-5, "{bend} and {twist}");
}

#[test]
fn j_and_k_move_a_tenth_of_the_weight_between_this_clip_and_the_next() {
    let (model, clips) = article();
    let mut mixing = Mixing::new(&model, &[], &clips, &Options::default()).expect("valid");
    mixing.shift(true).expect("K");
    assert_eq!(weights(&mixing), [(1, 0.9), (2, 0.1)]);
    for _ in 0..12 {
        mixing.shift(true).expect("K");
    }
    assert_eq!(weights(&mixing), [(1, 0.0), (2, 1.0)], "up to all of it, no further");
    mixing.shift(false).expect("J");
    assert_eq!(weights(&mixing), [(1, 0.1), (2, 0.9)]);
    // C (or a number) plays one clip alone again.
    mixing.play(0);
    assert_eq!(weights(&mixing), [(0, 1.0)]);
    // Three clips in the blend: J and K cannot say which two; refused with a reason.
    let three = LayerFlags {
        blend: weighted(&[("seed", 1.0), ("bend", 1.0), ("twist", 1.0)]),
        ..LayerFlags::default()
    };
    let mut mixing = Mixing::new(&model, &[], &clips, &with(three)).expect("valid");
    let err = mixing.shift(true).expect_err("three clips");
    assert!(err.contains("has 3"), "{err}");
    // One clip only: nothing to blend it with.
    let one: Arc<[Clip]> = clips[..1].into();
    let seed = Options { clip: "seed".into(), ..Options::default() };
    let mut mixing = Mixing::new(&model, &[], &one, &seed).expect("valid");
    let err = mixing.crossfade(0.0).expect_err("one clip");
    assert!(err.contains("only one"), "{err}");
}

#[test]
fn the_keys_reach_the_layers_and_the_corner_line_shows_them() {
    let (model, clips) = article();
    let mut d = Demo::new(model, clips, &Options { time: 1.0, ..Options::default() }).expect("valid");
    assert_eq!(d.key("k"), Reply::Changed);
    assert_eq!(d.key("K"), Reply::Changed);
    let status = d.scene(640, 480, 1.0).words.expect("words").status.to_string();
    let rows: Vec<&str> = status.lines().skip(1).collect();
    assert_eq!(rows, ["blend 0.80 bend  t 1.00 s  in step", "blend 0.20 twist  t 1.00 s  in step"]);
    assert_eq!(d.key("y"), Reply::Changed);
    assert!(d.scene(640, 480, 1.0).words.expect("words").status.contains("not in step"));
    // C plays the next clip alone: the rows go.
    d.key("c");
    assert_eq!((d.clip().name.as_str(), d.mixing.mixer.layers.len()), ("twist", 1));
    assert!(!d.scene(640, 480, 1.0).words.expect("words").status.contains('\n'));
    // F starts a fade; R ends it on the clip it went to.
    d.key("f");
    d.key("r");
    assert_eq!(d.clip().name, "seed");
}

#[test]
fn an_additive_clip_is_measured_against_the_reference_it_names() {
    let (model, clips) = article();
    let added = |reference| LayerFlags {
        additive: vec![Added { clip: "twist".into(), weight: 1.0, reference }],
        ..LayerFlags::default()
    };
    let reference = |flags| match Mixing::new(&model, &[], &clips, &with(flags)).expect("valid").mixer.layers
        [1]
    .kind
    .clone()
    {
        Kind::Additive { reference, against } => (reference, against),
        other => panic!("an additive layer, not {other:?}"),
    };
    let rest: Vec<Trs> = model.skeleton.bones().iter().map(|b| b.rest).collect();
    let first = |clip: usize| {
        let mut pose = rest.clone();
        clips[clip].sample_at(&model.skeleton, 0.0, &mut pose);
        pose
    };
    assert_eq!(reference(added(Reference::Start)), (first(2), Against::Start));
    assert_eq!(reference(added(Reference::Rest)), (rest.clone(), Against::Rest));
    assert_eq!(reference(added(Reference::Clip("bend".into()))), (first(1), Against::Clip(1)));
    let e = Mixing::new(&model, &[], &clips, &with(added(Reference::Clip("walk".into()))))
        .err()
        .expect("no walk");
    assert!(e.starts_with("unknown clip \"walk\" for --additive"), "{e}");
}

#[test]
fn fade_to_starts_a_crossfade_that_the_mixer_steps() {
    let (model, clips) = article();
    let layers = LayerFlags {
        fade_to: Some(FadeTo { clip: "twist".into(), at: Some(1.0) }),
        fade: 2.0,
        ..LayerFlags::default()
    };
    let mut mixing = Mixing::new(&model, &[], &clips, &with(layers)).expect("valid");
    let mut trs = vec![Trs::IDENTITY; model.skeleton.len()];
    // Before it starts, bend alone; halfway, half and half; after it, twist alone.
    for (time, bend, twist) in [(0.5, 1.0, 0.0), (2.0, 0.5, 0.5), (2.5, 0.25, 0.75)] {
        animate(&mut mixing, &model, time, &mut trs);
        assert_eq!(weights(&mixing), [(1, bend), (2, twist)], "at {time} s");
    }
    assert_eq!(animate(&mut mixing, &model, 3.0, &mut trs), 2);
    assert_eq!(weights(&mixing), [(2, 1.0)]);
}

#[test]
fn the_corner_line_shows_each_blend_layers_share_not_its_weight() {
    // --blend bend=1,twist=1: the mixer divides by the sum, so each counts half, as the rows say.
    let (model, clips) = article();
    let layers = LayerFlags { blend: weighted(&[("bend", 1.0), ("twist", 1.0)]), ..LayerFlags::default() };
    let mixing = Mixing::new(&model, &[], &clips, &with(layers)).expect("valid");
    let names: Vec<String> = clips.iter().map(|c| c.name.clone()).collect();
    let bones: Vec<String> = model.skeleton.bones().iter().map(|b| b.name.clone()).collect();
    let mut rows = String::new();
    mixing.write_rows(&mut rows, &names, &bones, 1.0);
    let rows: Vec<&str> = rows.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows[0].starts_with("blend 0.50 bend  ") && rows[1].starts_with("blend 0.50 twist  "),
        "{rows:?}"
    );
}
