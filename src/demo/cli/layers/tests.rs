//! The flags of several clips at once, read and checked.

use super::*;
use crate::demo::cli::{Command, parse};

fn flags(args: &[&str]) -> Result<LayerFlags, String> {
    match parse(args.iter().map(Into::into))? {
        Command::Run(options) => Ok(options.layers),
        Command::Help => Err("help".into()),
    }
}

#[test]
fn the_flags_read_clips_weights_and_bones() {
    let read = flags(&["--blend", "bend=0.3,twist=0.7", "--blend", "seed", "--additive", "twist=0.6"])
        .expect("valid");
    let named = |v: &[Weighted]| v.iter().map(|w| (w.clip.clone(), w.weight)).collect::<Vec<_>>();
    assert_eq!(named(&read.blend), [("bend".into(), 0.3), ("twist".into(), 0.7), ("seed".into(), 1.0)]);
    let added = Added { clip: "twist".into(), weight: 0.6, reference: Reference::Start };
    assert_eq!(read.additive, [added]);
    let read = flags(&["--mask", "twist@bone2=0.25", "--mask", "seed@0", "--fade", "2"]).expect("valid");
    let masks: Vec<_> = read.mask.iter().map(|m| (m.clip.as_str(), m.bone.as_str(), m.weight)).collect();
    assert_eq!(masks, [("twist", "bone2", 0.25), ("seed", "0", 1.0)]);
    assert_eq!((read.fade, read.sync), (2.0, false));
    assert!(flags(&["--blend", "bend,twist", "--sync"]).expect("valid").sync);
    assert_eq!(flags(&[]).expect("valid"), LayerFlags::default());
}

#[test]
fn the_layer_flags_go_with_the_others_they_make_sense_with() {
    let err = |args: &[&str]| flags(args).expect_err("refused");
    assert!(err(&["--model", "m.glb", "--animation", "Walk", "--blend", "Run"]).contains("drop --animation"));
    assert!(err(&["--model", "m.glb", "--info", "--additive", "Run"]).starts_with("--info only prints"));
    assert!(err(&["--export-gltf", "a.gltf", "--blend", "bend"]).starts_with("--export-gltf"));
    assert!(err(&["--dump", "-", "--fade", "1"]).starts_with("--fade sets how long a crossfade takes"));
    assert!(flags(&["--dump", "-", "--fade", "1", "--fade-to", "twist@0.5"]).is_ok());
    // A --fade of its default with a dump changes nothing, as no --fade at all.
    assert!(flags(&["--dump", "-", "--blend", "bend,twist", "--sync"]).is_ok());
}

#[test]
fn an_additive_clip_names_its_reference_and_spaces_after_commas_are_dropped() {
    let read =
        flags(&["--additive", "seed@rest,twist=0.5@bend", "--additive", "bend@twist=0.25"]).expect("valid");
    let added = |clip: &str, weight, reference| Added { clip: clip.into(), weight, reference };
    assert_eq!(
        read.additive,
        [
            added("seed", 1.0, Reference::Rest),
            added("twist", 0.5, Reference::Clip("bend".into())),
            added("bend", 0.25, Reference::Clip("twist".into()))
        ]
    );
    let read = flags(&["--blend", "seed=0.5, twist=0.5", "--mask", " twist @ bone2 =1"]).expect("valid");
    assert_eq!(
        (read.blend[1].clip.as_str(), read.mask[0].clip.as_str(), read.mask[0].bone.as_str()),
        ("twist", "twist", "bone2")
    );
    for bad in ["twist@", "twist=x@rest", "=1@rest"] {
        let e = flags(&["--additive", bad]).expect_err(bad);
        assert!(e.starts_with("--additive"), "{bad}: {e}");
    }
}

#[test]
fn fade_to_takes_a_clip_and_maybe_a_start() {
    let read = flags(&["--fade-to", "twist@1.5", "--fade", "2"]).expect("valid");
    assert_eq!(read.fade_to, Some(FadeTo { clip: "twist".into(), at: Some(1.5) }));
    assert_eq!(read.fade, 2.0);
    assert_eq!(
        flags(&["--fade-to", "bend"]).expect("valid").fade_to,
        Some(FadeTo { clip: "bend".into(), at: None })
    );
    for bad in [&["--fade-to", "twist@x"][..], &["--fade-to", "@1"], &["--fade-to", "a", "--fade-to", "b"]] {
        let e = flags(bad).expect_err("refused");
        assert!(e.starts_with("--fade-to"), "{bad:?}: {e}");
    }
}
