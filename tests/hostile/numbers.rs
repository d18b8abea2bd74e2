//! Cases 4 and 8: numbers too big for the clock or for 32-bit floats, and values that are not UTF-8.

use super::support::{Folder, fails_cleanly, program, scratch, stderr};
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

#[test]
fn times_past_the_limit_exit_2_naming_the_largest_accepted() {
    let dir = scratch("numbers");
    let file = dir.join("dump.json");
    let file = file.to_str().expect("utf-8");
    for args in [
        &["--dump", file, "--fixed-dt", "1e308", "--frames", "3"][..],
        &["--dump", file, "--time", "1e308"],
        &["--dump", file, "--time", "-1e300"],
        &["--dump", file, "--time", "inf"],
        &["--dump", file, "--time", "9e8", "--fixed-dt", "1e8", "--frames", "3"],
        &["--dump", file, "--fixed-dt", "1e9", "--frames", "18446744073709551615"],
        &["--headless", "--frames", "3", "--fixed-dt", "1e308"],
    ] {
        let out = program().args(args).output().expect("runs");
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("1e9"), "{args:?}: the largest accepted value is named: {line}");
    }
    assert!(Folder::of(&dir).names().is_empty());
}

#[test]
fn the_dump_never_writes_a_number_json_cannot_hold() {
    use skinning_formats::dump::{Frames, write_dump};
    let model = skinning_method::scene::article().expect("scene");
    let clips = skinning_method::scene::clips().expect("clips");
    // Past the command line's limits, straight into the library: it refuses rather than write
    // `inf`, `NaN` or serde_json's stand-in `null`.
    for frames in [
        Frames { start: 1e308, dt: 1e308, count: 3 },
        Frames { start: f64::NAN, dt: 0.1, count: 1 },
        Frames { start: f64::INFINITY, dt: 0.0, count: 1 },
    ] {
        let mut out = Vec::new();
        let result = write_dump(&mut out, &model, &clips[0], frames);
        assert!(result.is_err(), "{frames:?} was written");
        let text = String::from_utf8_lossy(&out);
        let frames_part = text.split_once("\"frames\"").expect("the model was written").1;
        for bad in ["inf", "NaN", "null"] {
            assert!(!frames_part.contains(bad), "{frames:?}: {bad} in the dump's frames");
        }
    }
    // At the limit the numbers are all finite and the JSON reads back.
    let mut out = Vec::new();
    write_dump(&mut out, &model, &clips[0], Frames { start: 1e9, dt: 0.0, count: 2 }).expect("at the limit");
    let dump: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
    assert_eq!(dump["frames"][1]["time"].as_f64(), Some(1e9));
}

#[test]
fn a_model_whose_own_numbers_overflow_is_refused_before_anything_is_written() {
    use glam::{Mat4, Vec3};
    use skinning_formats::dump::{Frames, Overflow, write_dump};
    use skinning_method::clip::{Clip, Motion};
    use skinning_method::skin::{Influence, Joint, Skin};
    // Built through the library, which does not check what the glTF loader does: two bones each
    // 3e38 along x, so the second's rest world transform is at 6e38, infinity in 32-bit floats.
    let mut b = skinning_method::skeleton::SkeletonBuilder::new();
    let (first, second) = (b.bone("first", Vec3::X * 3e38), b.bone("second", Vec3::X * 3e38));
    b.set_first_child(first, second);
    let skeleton = b.build().expect("a tree");
    let joints = vec![Joint { bone: first, offset: Mat4::IDENTITY }];
    let skin = Skin::from_table(joints, &[(Vec3::ZERO, &[Influence { joint: 0, weight: 1.0 }][..])]);
    let model =
        skinning_method::model::Model::new(skeleton, skin.expect("a skin"), Vec::new()).expect("a model");
    let still = Clip { name: "still".into(), duration: 0.0, motion: Motion::Keyframes(Vec::new()) };
    let mut out = Vec::new();
    let error = write_dump(&mut out, &model, &still, Frames { start: 0.0, dt: 0.1, count: 1 })
        .expect_err("an infinite rest pose is not written");
    let overflow = Overflow::of(&error).expect("the model is blamed");
    assert_eq!(overflow.frame, None, "before any frame: {overflow}");
    assert!(overflow.what.contains("bone 1 \"second\"'s rest world"), "{overflow}");
    assert!(out.is_empty(), "nothing written: {}", String::from_utf8_lossy(&out));
}

#[test]
fn a_path_that_is_not_utf8_is_a_path_and_a_name_that_is_not_is_said_so() {
    let dir = scratch("utf8");
    let name = OsString::from_vec(b"dump-\xff.json".to_vec());
    let out = program().arg("--dump").arg(&name).current_dir(&dir).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join(&name).exists(), "the file has exactly the bytes given");
    for flag in ["--clip", "--weights", "--frames", "--size", "--skinning"] {
        let out = program().arg(flag).arg(OsString::from_vec(b"a\xff".to_vec())).output().expect("runs");
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("not valid UTF-8") && !line.contains("needs a value"), "{flag}: {line}");
    }
}
