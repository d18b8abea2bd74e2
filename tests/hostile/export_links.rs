//! An export named through a symbolic link: the link is followed once, and every file the export
//! writes goes beside where the mesh really lands (an MD5 model is its folder's `.md5anim` files),
//! never over one of its own files (`src/demo/output/together.rs`: `landing`).

use super::support::{Folder, fails_cleanly, run, scratch};
use std::os::unix::fs::symlink;

#[test]
fn an_md5_export_through_a_link_lands_whole_where_the_link_leads() {
    let dir = scratch("export-link");
    std::fs::create_dir(dir.join("real")).expect("mkdir");
    symlink("real/arm.md5mesh", dir.join("link.md5mesh")).expect("a link");
    let out = run(&["--export-md5", dir.join("link.md5mesh").to_str().expect("utf-8")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Nothing beside the link but the link and the folder.
    assert_eq!(Folder::of(&dir).names(), ["link.md5mesh", "real"]);
    let mut written = Folder::of(&dir.join("real")).names();
    written.sort();
    assert_eq!(written, ["arm.md5mesh", "bend.md5anim", "seed.md5anim", "twist.md5anim"]);
    // The reload of the mesh where it landed finds its clips.
    let info = run(&["--model", dir.join("real/arm.md5mesh").to_str().expect("utf-8"), "--info"]);
    let info = String::from_utf8_lossy(&info.stdout);
    for clip in ["seed", "bend", "twist"] {
        assert!(info.contains(clip), "{clip} not in {info}");
    }
}

#[test]
fn a_link_to_one_of_the_exports_own_files_is_refused() {
    let dir = scratch("export-link-own");
    // The mesh would land on bend.md5anim, which the export also writes.
    symlink("bend.md5anim", dir.join("arm.md5mesh")).expect("a link");
    let before = Folder::of(&dir);
    let line = fails_cleanly(&run(&["--export-md5", dir.join("arm.md5mesh").to_str().expect("utf-8")]), 1);
    assert!(line.contains("a file the export writes itself"), "{line}");
    before.unchanged(&dir);
}
