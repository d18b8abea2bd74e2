//! Names a user types (`src/demo/cli/names.rs`): every flag that names a bone or a clip finds it by
//! the same rules (exact, an index, any letter case, the part after a namespace prefix such as
//! Mixamo's `mixamorig:`), and a wrong one gets the same line from every flag, with the closest
//! names. Also what the command line says of a flag typed with one dash, and of spaces after commas.

use common::rigs;
use common::{program, scratch};
use std::path::PathBuf;
use std::process::Output;

fn t_pose(test: &str) -> PathBuf {
    let path = scratch(test).join("t-pose.gltf");
    std::fs::write(&path, rigs::t_pose().embedded()).expect("scratch is writable");
    path
}

fn run(model: &PathBuf, args: &[&str]) -> Output {
    program().arg("--model").arg(model).args(args).output().expect("the program runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn every_flag_finds_a_mixamo_bone_without_its_prefix_and_says_so() {
    let model = t_pose("found");
    let shot = scratch("found-shot").join("shot.png");
    let shot = shot.to_str().expect("utf-8");
    for args in [
        &["--reach", "RightHand=-0.45,1.55,0.2", "--pole", "ikarmpole.r", "--dump", "/dev/null"][..],
        &["--mask", "Wave@RightArm", "--dump", "/dev/null"],
        &["--reach", "RightArm..RightHand=-0.45,1.55,0.2", "--dump", "/dev/null"],
        &[
            "--headless",
            "--weights",
            "rightforearm",
            "--trail",
            "LeftFoot",
            "--size",
            "64x64",
            "--screenshot",
            shot,
        ],
    ] {
        let out = run(&model, args);
        let said = stderr(&out);
        assert!(out.status.success(), "{args:?}: {said}");
        assert!(said.contains("taken as the bone mixamorig:"), "{args:?}: no note: {said}");
    }
    let said = stderr(&run(&model, &["--reach", "RightHand=-0.45,1.55,0.2", "--dump", "/dev/null"]));
    assert!(
        said.contains("note: --reach \"RightHand\": taken as the bone mixamorig:RightHand (with its prefix)"),
        "{said}"
    );
    // Clips too: in any letter case.
    let out = run(&model, &["--animation", "wave", "--dump", "/dev/null"]);
    assert!(out.status.success() && stderr(&out).contains("taken as the animation Wave"), "{}", stderr(&out));
}

#[test]
fn a_wrong_name_gets_the_same_line_from_every_flag_with_the_closest_names() {
    let model = t_pose("wrong");
    let shot = scratch("wrong-shot").join("shot.png");
    let shot = shot.to_str().expect("utf-8");
    let mut answers = Vec::new();
    for (flag, args) in [
        ("--reach", &["--reach", "RightHnd=0,1,0", "--dump", "/dev/null"][..]),
        ("--weights", &["--headless", "--weights", "RightHnd", "--screenshot", shot]),
        ("--trail", &["--headless", "--trail", "RightHnd", "--screenshot", shot]),
        ("--mask", &["--mask", "Wave@RightHnd", "--dump", "/dev/null"]),
        ("--pole", &["--reach", "RightHand=0,1,0", "--pole", "RightHnd", "--dump", "/dev/null"]),
    ] {
        let out = run(&model, args);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag}: {said}");
        let line = said.lines().last().expect("a line").to_string();
        let expected = format!(
            "skinning: unknown bone \"RightHnd\" for {flag}: the closest of its 22 are mixamorig:RightHand, "
        );
        assert!(line.starts_with(&expected), "{flag}: {line}");
        answers.push(line.replacen(flag, "FLAG", 1));
    }
    assert!(answers.iter().all(|a| *a == answers[0]), "the flags answer differently: {answers:#?}");
    assert!(answers[0].len() < 250, "one short line: {}", answers[0]);
}

#[test]
fn spaces_after_commas_are_trimmed_and_a_one_dash_flag_is_named_as_typed() {
    let model = t_pose("spaces");
    let out = run(&model, &["--blend", "Idle=0.5, Wave=0.5", "--dump", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dump: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let clips: Vec<&str> = (dump["frames"][0]["layers"].as_array().expect("layers").iter())
        .map(|l| l["clip"].as_str().expect("a name"))
        .collect();
    assert_eq!(clips, ["Idle", "Wave"]);
    for (typed, says) in [
        ("-frames", "unknown flag -frames: flags take two dashes, --frames (see --help)"),
        ("-reach", "unknown flag -reach: flags take two dashes, --reach (see --help)"),
        ("--frame", "unknown flag --frame: did you mean --frames? (see --help)"),
    ] {
        let out = program().args([typed, "1"]).output().expect("runs");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(stderr(&out), format!("skinning: {says}\n"));
    }
}
