//! The command line's rules: what parses, and that every refusal is one line.

use super::*;
use crate::demo::cli::choices::{Methods, Skinning};
use skinning_formats::gltf_export::Container;
use std::path::PathBuf;

fn run(args: &[&str]) -> Result<Command, String> {
    parse(args.iter().map(OsString::from))
}

#[test]
fn flags_and_values() {
    let Ok(Command::Run(o)) = run(&["--frames", "3", "--fixed-dt=0.5", "--size", "800x600", "--headless"])
    else {
        panic!("should parse")
    };
    assert_eq!((o.frames, o.fixed_dt, o.size, o.headless), (Some(3), Some(0.5), Some((800, 600)), true));
    let Ok(Command::Run(o)) = run(&["--inspect", "2", "--no-text"]) else { panic!("should parse") };
    assert_eq!((o.inspect, o.text), (Some(2), false));
    assert!(matches!(run(&[]), Ok(Command::Run(o)) if o.inspect.is_none() && o.text));
    assert_eq!(run(&["--help"]), Ok(Command::Help));
    let Ok(Command::Run(o)) = run(&["--method", "dqs", "--skinning=gpu"]) else { panic!("should parse") };
    assert_eq!((o.method, o.skinning), (Methods::Dqs, Skinning::Gpu));
    let Ok(Command::Run(o)) = run(&["--camera", "50,-25.5"]) else { panic!("should parse") };
    assert_eq!(o.camera, Some((50.0, -25.5, 1.0)));
    let Ok(Command::Run(o)) = run(&["--camera", "50,0,2"]) else { panic!("should parse") };
    assert_eq!(o.camera, Some((50.0, 0.0, 2.0)));
    let Ok(Command::Run(o)) = run(&["--threads", "1", "--parallel-from=0"]) else { panic!("should parse") };
    assert_eq!((o.threads, o.parallel_from), (Some(1), Some(0)));
    let Ok(Command::Run(o)) = run(&["--crowd", "1000"]) else { panic!("should parse") };
    assert_eq!((o.crowd, Options::default().crowd), (1000, 1));
    assert!(matches!(run(&["--crowd=10000"]), Ok(Command::Run(o)) if o.crowd == 10_000));
    assert_eq!(run(&[]).map(|c| matches!(c, Command::Run(o) if o.method == Methods::Lbs)), Ok(true));
    assert_eq!(run(&["-h"]), Ok(Command::Help));
    let Ok(Command::Run(o)) = run(&["--surface", "off", "--normals"]) else { panic!("should parse") };
    assert_eq!((o.surface, o.normals), (Some(false), true));
    assert!(matches!(run(&[]), Ok(Command::Run(o)) if o.surface.is_none() && !o.normals));
}

#[test]
fn bad_input_is_one_line() {
    for args in [
        &["--frames", "0"][..],
        &["--frames"],
        &["--bogus"],
        &["--size", "0x10"],
        &["--fixed-dt", "-1"],
        &["--screenshot", "a.png"],
        &["--headless"],
        &["--headless=yes"],
        &["--skinning", "tpu"],
        &["--dump", "a.json", "--skinning", "both"],
        &["--method", "quaternions"],
        &["--camera", "30"],
        &["--camera", "30,nan"],
        &["--camera", "1000,0"],
        &["--camera", "0,0,100"],
        &["--camera", "0,0,1,1"],
        &["--dump", "a.json", "--method", "both"],
        &["--inspect", "-1"],
        &["--inspect"],
        &["--dump", "a.json", "--inspect", "2"],
        &["--time", "1e308"],
        &["--threads", "0"],
        &["--surface"],
        &["--surface", "lit"],
        &["--normals=yes"],
        &["--threads", "many"],
        &["--parallel-from", "-1"],
        &["--model", "fox.glb", "--clip", "bend"],
        &["--animation", "Walk"],
        &["--info"],
        &["--model", "fox.glb", "--info", "--dump", "d.json"],
        &["--fixed-dt", "1e308", "--frames", "3"],
        &["stray.glb", "more.glb"],
        &["--dump", ""],
        &["--dump", "."],
        &["--dump", ".."],
        &["--dump", "/"],
        &["--dump", "out/"],
        &["--dump", "out/.."],
        &["--frames", "1", "--screenshot", "shots/"],
        &["--export-gltf", "arm.obj"],
        &["--export-gltf", "out/"],
        &["--export-gltf"],
        &["--export-gltf", "arm.glb", "--clip", "bend"],
        &["--export-gltf", "arm.glb", "--frames", "3"],
    ] {
        let err = run(args).expect_err("should be refused");
        assert!(!err.contains('\n') && !err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn export_gltf_takes_its_container_from_the_extension_and_only_model_beside_it() {
    let Ok(Command::Run(o)) = run(&["--export-gltf", "arm.GLB"]) else { panic!("should parse") };
    assert_eq!(o.export_gltf, Some((PathBuf::from("arm.GLB"), Container::Glb)));
    let Ok(Command::Run(o)) = run(&["--export-gltf=out/arm.gltf"]) else { panic!("should parse") };
    assert_eq!(o.export_gltf, Some((PathBuf::from("out/arm.gltf"), Container::Gltf)));
    let Ok(Command::Run(o)) = run(&["--export-gltf", "-"]) else { panic!("should parse") };
    assert_eq!(o.export_gltf, Some((PathBuf::from("-"), Container::Gltf)), "JSON on standard output");
    let err = run(&["--export-gltf", "arm"]).expect_err("no extension");
    assert!(err.contains(".gltf") && err.contains(".glb"), "{err}");
    let Ok(Command::Run(o)) = run(&["--model", "fox.glb", "--export-gltf", "arm.gltf"]) else {
        panic!("any model is written")
    };
    assert_eq!(o.model, Some("fox.glb".into()));
    let err = run(&["--export-gltf", "arm.gltf", "--stats"]).expect_err("not with another flag");
    assert!(err.contains("give it alone"), "{err}");
}

#[test]
fn export_md5_wants_an_md5mesh_and_takes_only_model_beside_it() {
    let Ok(Command::Run(o)) = run(&["--export-md5", "out/arm.MD5MESH"]) else { panic!("should parse") };
    assert_eq!(o.export_md5, Some(PathBuf::from("out/arm.MD5MESH")));
    let Ok(Command::Run(o)) = run(&["--model", "fox.glb", "--export-md5", "fox.md5mesh"]) else {
        panic!("should parse")
    };
    assert_eq!((o.model, o.export_md5), (Some("fox.glb".into()), Some("fox.md5mesh".into())));
    let err = run(&["--export-md5", "-"]).expect_err("two or more files");
    assert!(err.contains("two or more files, so not -"), "{err}");
    let err = run(&["--export-md5", "arm.md5anim"]).expect_err("the mesh's name");
    assert!(err.contains("name it FILE.md5mesh"), "{err}");
    for args in [
        &["--export-md5", "a.md5mesh", "--frames", "3"][..],
        &["--export-md5", "a.md5mesh", "--clip", "seed"],
        &["--export-md5", "a.md5mesh", "--export-gltf", "a.glb"],
        &["--model", "fox.glb", "--export-md5", "a.md5mesh", "--animation", "Walk"],
        &["--export-md5", "a.md5mesh", "--export-md5", "b.md5mesh"],
    ] {
        let err = run(args).expect_err("refused");
        assert!(!err.contains('\n') && err.contains("--export-"), "{args:?}: {err}");
    }
}

#[test]
fn force_goes_with_export_md5_only() {
    let Ok(Command::Run(o)) = run(&["--model", "fox.glb", "--export-md5", "a.md5mesh", "--force"]) else {
        panic!("should parse")
    };
    assert!(o.force);
    for args in [&["--force"][..], &["--export-gltf", "a.glb", "--force"], &["--frames", "1", "--force"]] {
        let err = run(args).expect_err("refused");
        assert!(err.starts_with("--force lets --export-md5 replace"), "{args:?}: {err}");
    }
}

#[test]
fn a_value_for_a_flag_that_takes_none_is_refused_like_the_others() {
    for (args, flag) in [
        (&["--help=foo"][..], "--help"),
        (&["-h=x"], "-h"),
        (&["--headless=1"], "--headless"),
        (&["--frames", "1", "--stats=yes"], "--stats"),
    ] {
        let err = run(args).expect_err("a value where none is taken");
        assert!(err.starts_with(&format!("{flag} takes no value")) && err.ends_with("(see --help)"), "{err}");
    }
    // As an unknown flag is.
    assert!(run(&["--bogus"]).expect_err("unknown").ends_with("(see --help)"));
}

#[test]
fn a_file_flag_given_twice_is_refused() {
    for (args, flag) in [
        (&["--dump", "a.json", "--dump", "b.json"][..], "--dump"),
        (&["--frames", "1", "--screenshot", "a.png", "--screenshot=b.png"], "--screenshot"),
        (&["--export-gltf", "a.glb", "--export-gltf", "b.gltf"], "--export-gltf"),
        (&["--model", "a.glb", "--model", "b.glb"], "--model"),
    ] {
        let err = run(args).expect_err("given twice");
        assert!(err.starts_with(&format!("{flag} is given twice")), "{args:?}: {err}");
    }
    // Other flags keep their last value.
    let Ok(Command::Run(o)) = run(&["--frames", "2", "--frames", "3"]) else { panic!("should parse") };
    assert_eq!(o.frames, Some(3));
}

#[test]
fn times_past_the_limit_name_the_limit() {
    let err = run(&["--dump", "d.json", "--fixed-dt", "1e8", "--frames", "20"]).expect_err("too far");
    assert!(err.contains("1e9"), "{err}");
    // Right at the limit is fine.
    assert!(run(&["--dump", "d.json", "--fixed-dt", "1e8", "--frames", "11"]).is_ok());
}

#[cfg(unix)]
#[test]
fn a_value_that_is_not_utf8_is_named_as_such() {
    use std::os::unix::ffi::OsStringExt;
    let bad = OsString::from_vec(b"a\xff".to_vec());
    // A file name may be any bytes...
    let parsed = parse([OsString::from("--dump"), bad.clone()]).expect("a path may be any bytes");
    assert!(matches!(parsed, Command::Run(o) if o.dump.is_some()));
    // ...a clip name must be text, and the message says so rather than "needs a value".
    let err = parse([OsString::from("--clip"), bad]).expect_err("not UTF-8");
    assert!(err.contains("UTF-8") && !err.contains("needs a value"), "{err}");
}

#[test]
fn another_rigs_bone_is_found_by_its_name_its_letter_case_or_after_its_prefix() {
    use super::names::same_bone;
    let plain = ["Hips", "Spine", "RightHand", "LeftHand"];
    let mixamo = ["mixamorig:Hips", "mixamorig:Spine", "mixamorig:RightHand"];
    assert_eq!(same_bone("mixamorig:Hips", &plain), Some(0));
    assert_eq!(same_bone("RIGHTHAND", &plain), Some(2));
    assert_eq!(same_bone("mixamorig:RightHand", &mixamo), Some(2));
    assert_eq!(same_bone("mixamo:spine", &mixamo), Some(1));
    assert_eq!(same_bone("Tail", &plain), None);
    assert_eq!(same_bone("1", &plain), None, "no index");
    assert_eq!(same_bone("hand", &["a:Hand", "b:Hand"]), None, "two: no match");
}
