//! The `skinning` program from the outside: its command line, its errors, its JSON dump.

use common::{program, run, scratch};
use glam::{Mat4, Vec3};
use serde_json::Value;
use skinning_method::frame::Pose;
use skinning_method::scene;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A user-facing failure: the given exit code and exactly one line on stderr, no panic.
fn assert_one_line_failure(out: &std::process::Output, code: i32) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line expected: {err}");
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{err}");
    err
}

#[test]
fn help_explains_the_options() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--frames",
        "--fixed-dt",
        "--time",
        "--screenshot",
        "--headless",
        "--size",
        "--dump",
        "--clip",
        "--inspect",
        "--no-text",
        "--model",
        "--animation",
        "--info",
    ] {
        assert!(help.contains(flag), "--help does not mention {flag}");
    }
}

#[test]
fn bad_command_lines_get_one_line_and_exit_2() {
    for args in [
        &["--bogus"][..],
        &["--frames", "many"],
        &["--frames", "-3"],
        &["--fixed-dt", "fast"],
        &["--time", "nan"],
        &["--size", "800"],
        &["--size", "0x600"],
        &["--clip", "dance"],
        &["--weights", "bone9"],
        &["--inspect", "13"],
        &["--inspect", "two"],
        &["--skinning", "tpu"],
        &["--screenshot", "x.png"],
        &["--headless"],
        &["--frames"],
    ] {
        let err = assert_one_line_failure(&run(args), 2);
        assert!(err.starts_with("skinning: "), "{args:?}: {err}");
    }
}

#[test]
fn no_display_server_says_what_to_do() {
    let out = program()
        .args(["--frames", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("runs");
    let err = assert_one_line_failure(&out, 3);
    assert!(err.contains("DISPLAY") && err.contains("--headless"), "{err}");
}

#[test]
fn headless_without_an_egl_driver_names_the_packages() {
    // glvnd finds no EGL vendor library through this path: the same as a machine without Mesa.
    let out = program()
        .args(["--headless", "--frames", "1"])
        .env("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json")
        .env("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent")
        .output()
        .expect("runs");
    let err = assert_one_line_failure(&out, 3);
    assert!(err.contains("libegl1") && err.contains("libgl1-mesa-dri"), "{err}");
}

fn dump(dir: &std::path::Path, args: &[&str]) -> Value {
    let path = dir.join("dump.json");
    let path_str = path.to_str().expect("utf-8 temp path");
    let mut all = vec!["--dump", path_str];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("dump written")).expect("valid JSON")
}

fn numbers(v: &Value) -> Vec<f32> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number") as f32).collect()
}

fn matrix(v: &Value) -> Mat4 {
    Mat4::from_cols_slice(&numbers(v))
}

#[test]
fn the_dump_holds_the_articles_scene_and_poses() {
    let dir = scratch("dump");
    let d = dump(&dir, &["--clip", "seed", "--frames", "5", "--fixed-dt", "0.25", "--time", "0.5"]);
    assert_eq!(d["clip"], "seed");

    let bones = d["bones"].as_array().expect("bones");
    let names: Vec<&str> = bones.iter().map(|b| b["name"].as_str().expect("name")).collect();
    assert_eq!(names, ["root", "bone1", "bone2", "bone31", "bone32"]);
    assert_eq!(bones[0]["parent"], Value::Null);
    assert_eq!(bones[4]["parent"], 2);
    assert_eq!(bones[3]["sibling"], 4);
    assert_eq!(bones[2]["first_child"], 3);
    // Column-major: the translation is the last column, numbers 12, 13, 14.
    let rest_world = numbers(&bones[4]["rest_world"]);
    assert!(
        Vec3::new(rest_world[12], rest_world[13], rest_world[14])
            .abs_diff_eq(Vec3::new(0.6, -0.1, 0.0), 1e-6)
    );
    // One joint per bone, joint i on bone i; its offset undoes the bone's rest (= bind) world.
    let joints = d["joints"].as_array().expect("joints");
    assert_eq!(joints.len(), 5);
    for (i, (j, b)) in joints.iter().zip(bones).enumerate() {
        assert_eq!(j["bone"], i);
        let product = matrix(&j["offset"]) * matrix(&b["rest_world"]);
        assert!(product.abs_diff_eq(Mat4::IDENTITY, 1e-5), "{}", b["name"]);
    }

    let vertices = d["vertices"].as_array().expect("vertices");
    assert_eq!(vertices.len(), 13);
    assert_eq!(numbers(&vertices[3]["bind"]), [0.45, 0.06, 0.0]);
    assert_eq!(vertices[3]["influences"][1]["joint"], 3);
    assert_eq!(vertices[3]["influences"][1]["weight"].as_f64(), Some(0.7));

    // Frames: times from --time and --fixed-dt, and the same numbers as the library computes.
    let frames = d["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 5);
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    for (i, frame) in frames.iter().enumerate() {
        let t = 0.5 + 0.25 * i as f64;
        assert_eq!(frame["time"].as_f64(), Some(t));
        pose.update(&model, &scene::seed(), t);
        for (b, world) in frame["world"].as_array().expect("world").iter().enumerate() {
            assert!(matrix(world).abs_diff_eq(pose.world[b], 1e-6));
        }
        for (j, palette) in frame["palette"].as_array().expect("palette").iter().enumerate() {
            assert!(matrix(palette).abs_diff_eq(pose.palette[j], 1e-6));
        }
        for (v, p) in frame["skinned"].as_array().expect("skinned").iter().enumerate() {
            assert!(Vec3::from_slice(&numbers(p)).abs_diff_eq(pose.skinned[v].into(), 1e-6));
        }
    }
    // At t = 1 s bone1's local y is -0.2 (the bottom of its sweep).
    let local = numbers(&frames[2]["local"][1]);
    assert!((local[13] + 0.2).abs() < 1e-6, "{local:?}");
}

#[test]
fn an_unwritable_dump_fails_cleanly_and_leaves_no_file() {
    let dir = scratch("unwritable");
    let missing = dir.join("no-such-folder").join("dump.json");
    let err = assert_one_line_failure(&run(&["--dump", missing.to_str().expect("utf-8")]), 1);
    assert!(err.contains("cannot write"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    // A folder that exists but cannot be written to (skipped when running as root, who can write anywhere).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.join("locked");
        std::fs::create_dir(&locked).expect("mkdir");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        if std::fs::write(locked.join("probe"), b"").is_err() {
            let out = run(&["--dump", locked.join("d.json").to_str().expect("utf-8")]);
            assert_one_line_failure(&out, 1);
            assert_eq!(std::fs::read_dir(&locked).expect("dir").count(), 0);
        } else {
            // (`tests/hostile/write_faults.rs` checks a read-only file system, which stops root too.)
            eprintln!("SKIPPED: a folder's permission bits do not stop this user (root)");
        }
    }
}
