//! A model's buffer file must lie in the model's folder. A `.gltf` names its buffer by a `uri`; one
//! that climbs out (`../../../../etc/passwd`), a link beside the model that leads out, an absolute
//! path or a `file:` URI is refused in one line before the file is opened, and no byte of it comes
//! out (it would be vertex positions in `--dump` and in the picture). Paths that stay in are read.

use super::arm::{arm, moves_as_the_spec_says, refused, run_clean, text};
use super::support::{fails_cleanly, scratch};
use serde_json::json;
use std::path::Path;

/// The arm as a `.gltf` in `folder` whose buffer is the file the `uri` names; the arm's bytes are
/// written at `bin` (relative to `folder`), wherever the uri points.
fn arm_with_uri(folder: &Path, uri: &str, bin: &str) -> std::path::PathBuf {
    let gltf = arm();
    std::fs::create_dir_all(folder.join(bin).parent().expect("a folder")).expect("mkdir");
    std::fs::write(folder.join(bin), &gltf.bin).expect("write the buffer");
    let mut json = gltf.json.clone();
    json["buffers"] = json!([{ "byteLength": gltf.bin.len(), "uri": uri }]);
    let path = folder.join("arm.gltf");
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).expect("write the model");
    path
}

#[test]
fn a_uri_that_climbs_out_of_the_folder_is_refused_and_nothing_of_the_file_comes_out() {
    // Enough `../` to reach `/` from any scratch folder: /etc/passwd is there and readable, so
    // only the rule can refuse it.
    let folder = scratch("climb").join("model");
    let model = arm_with_uri(&folder, &format!("{}etc/passwd", "../".repeat(30)), "unused.bin");
    let passwd = std::fs::read("/etc/passwd").expect("/etc/passwd");
    let line = refused(&model, "leads outside the model's folder");
    assert!(line.contains("etc/passwd"), "{line}");
    // Neither --info nor the dump to standard output shows the file's bytes as numbers.
    for args in [&["--info"][..], &["--dump", "-"]] {
        let out = run_clean(&[&["--model", text(&model)][..], args].concat());
        fails_cleanly(&out, 1);
        assert!(!passwd.is_empty() && out.stdout.is_empty());
    }
}

#[test]
fn every_way_out_is_refused_the_same_way() {
    let root = scratch("ways-out");
    std::fs::write(root.join("secret.bin"), arm().bin).expect("a file beside the model's folder");
    let secret = root.join("secret.bin");
    for (case, uri, why) in [
        ("up", "../secret.bin".to_string(), "leads outside"),
        ("up-escaped", "%2E%2E/secret.bin".to_string(), "leads outside"),
        ("down-and-up", "sub/../../secret.bin".to_string(), "leads outside"),
        ("absolute", secret.to_str().unwrap().to_string(), "absolute path"),
        ("file-uri", format!("file://{}", secret.display()), "neither a data: URI"),
    ] {
        let folder = root.join(case);
        std::fs::create_dir_all(folder.join("sub")).expect("mkdir");
        let model = arm_with_uri(&folder, &uri, "arm.bin");
        refused(&model, why);
    }
    // Links followed: a link beside the model to the file outside, and a link to a folder outside.
    let folder = root.join("links");
    let model = arm_with_uri(&folder, "link.bin", "arm.bin");
    std::os::unix::fs::symlink(&secret, folder.join("link.bin")).expect("symlink");
    refused(&model, "leads outside");
    let model = arm_with_uri(&folder, "elsewhere/secret.bin", "arm.bin");
    std::os::unix::fs::symlink(&root, folder.join("elsewhere")).expect("symlink");
    refused(&model, "leads outside");
}

#[test]
fn paths_that_stay_in_the_folder_are_read() {
    let folder = scratch("stay-in").join("model");
    for (uri, bin) in [
        ("buffers/arm.bin", "buffers/arm.bin"),
        ("buffers/../arm%20data.bin", "arm data.bin"),
        ("inside.bin", "buffers/real.bin"),
    ] {
        let model = arm_with_uri(&folder, uri, bin);
        if uri == "inside.bin" {
            let _ = std::fs::remove_file(folder.join("inside.bin"));
            std::os::unix::fs::symlink("buffers/real.bin", folder.join("inside.bin")).expect("symlink");
        }
        moves_as_the_spec_says(&model, &[]);
    }
}
