//! The one loader, handed files as a web page hands them: the same one-line errors and the same
//! model as from the same files on disk.

use super::*;
use crate::demo::model::files::Files;

fn files(entries: &[(&str, &[u8])]) -> Files {
    let entries = entries.iter().map(|(n, b)| (n.to_string(), Ok(b.to_vec()))).collect();
    Files { entries, notes: Vec::new() }
}

/// Opens `name` from `files` as a page does; `info` asks for `--info`'s text (shown, not returned).
fn open_handed(name: &str, files: &Files, info: bool) -> Result<Loaded, Failure> {
    let options = Options { info, ..Options::default() };
    match open(ModelFiles::Handed { name, files }, &options)? {
        Loading::Show(loaded) => Ok(*loaded),
        Loading::Described => Err(Failure::new(0, "described")),
    }
}

#[test]
fn a_bad_file_gets_one_line_with_its_name_first() {
    let failure =
        open_handed("bad.glb", &files(&[("bad.glb", b"not a model")]), false).err().expect("refused");
    assert_eq!(failure.code, 1);
    assert!(failure.message.starts_with("bad.glb: ") && !failure.message.contains('\n'), "{failure}");
    let failure = open_handed("gone.glb", &Files::default(), false).err().expect("refused");
    assert!(failure.message.starts_with("cannot read gone.glb ("), "{failure}");
    let failure = open_handed("walk.md5anim", &Files::default(), false).err().expect("refused");
    assert!(failure.message.contains("give its .md5mesh"), "{failure}");
}

/// One joint, one triangle; an animation of two frames that moves the joint up.
const MESH: &str = "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\n\
joints {\n\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n\
mesh {\nshader \"x\"\nnumverts 3\nvert 0 ( 0 0 ) 0 1\nvert 1 ( 0 0 ) 1 1\nvert 2 ( 0 0 ) 2 1\n\
numtris 1\ntri 0 0 1 2\nnumweights 3\nweight 0 0 1 ( 0 0 0 )\nweight 1 0 1 ( 1 0 0 )\n\
weight 2 0 1 ( 0 1 0 )\n}\n";
const ANIM: &str = "MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints 1\nframeRate 10\n\
numAnimatedComponents 1\nhierarchy {\n\"root\" -1 4 0\n}\n\
bounds {\n( 0 0 0 ) ( 1 1 0 )\n( 0 0 1 ) ( 1 1 1 )\n}\n\
baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n0\n}\nframe 1 {\n1\n}\n";

#[test]
fn an_md5_model_plays_the_animations_handed_with_it() {
    let given = files(&[("m/hero.md5mesh", MESH.as_bytes()), ("m/wave.md5anim", ANIM.as_bytes())]);
    let loaded = open_handed("m/hero.md5mesh", &given, false).expect("opens");
    assert_eq!(loaded.own_clips, 1);
    assert_eq!(loaded.clips[0].name, "wave");
    assert_eq!(loaded.read, [PathBuf::from("m/hero.md5mesh")]);
    let Loading::Show(_) =
        open(ModelFiles::Handed { name: "m/hero.md5mesh", files: &given }, &Options::default())
            .expect("opens")
    else {
        panic!("shown, not described");
    };
    // An animation the server did not give is a note; the model still opens.
    let mut given = given;
    given.entries.push(("m/run.md5anim".into(), Err("HTTP 404 Not Found beside the page".into())));
    let loaded = open_handed("m/hero.md5mesh", &given, false).expect("opens");
    assert_eq!(loaded.notes, ["skipped the animation run.md5anim: HTTP 404 Not Found beside the page"]);
}

#[test]
fn the_fox_opens_from_its_bytes_as_from_its_file() {
    let Some(path) = std::env::var_os("SKINNING_MODELS").map(|d| std::path::Path::new(&d).join("Fox.glb"))
    else {
        eprintln!("SKIPPED (set SKINNING_MODELS=/path/to/shared/assets to open the Fox)");
        return;
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let loaded = open_handed("Fox.glb", &files(&[("Fox.glb", &bytes)]), false).expect("the Fox opens");
    assert_eq!(loaded.model.skin.len(), 1728);
    assert_eq!(loaded.own_clips, 3);
}

#[test]
fn a_gltf_reads_the_files_it_names_from_those_handed_over_never_from_outside_its_folder() {
    // A .gltf whose one buffer is a file beside it: three floats, one triangle's worth of nothing
    // but enough to be read. The loader finds it by its name from the model's folder.
    let gltf = br#"{"asset":{"version":"2.0"},"buffers":[{"uri":"data%20a.bin","byteLength":4}]}"#;
    let given = files(&[("m/scene.gltf", gltf), ("m/data a.bin", &[0, 0, 0, 0])]);
    let failure = open_handed("m/scene.gltf", &given, false).err().expect("nothing to draw");
    assert!(failure.message.starts_with("m/scene.gltf: "), "{failure}");
    assert!(!failure.message.contains("buffer"), "the buffer was found: {failure}");
    // Missing, or outside the folder: the buffer's one line, as on disk.
    let failure =
        open_handed("m/scene.gltf", &files(&[("m/scene.gltf", gltf)]), false).err().expect("refused");
    assert!(
        failure.message.contains("buffer 0: it is the file \"data a.bin\", which was not handed over"),
        "{failure}"
    );
    let outside = br#"{"asset":{"version":"2.0"},"buffers":[{"uri":"../secret.bin","byteLength":1}]}"#;
    let given = files(&[("m/scene.gltf", outside), ("secret.bin", &[7])]);
    let failure = open_handed("m/scene.gltf", &given, false).err().expect("refused");
    assert!(failure.message.contains("buffer 0: its uri \"../secret.bin\" leads outside"), "{failure}");
}

#[test]
fn clips_from_another_file_handed_over_are_the_clips_from_that_file_on_disk() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (rig, walker) = (read("t-pose.gltf"), read("walker.gltf"));
    let mut options = Options { model: Some(dir.join("t-pose.gltf")), ..Options::default() };
    options.motion.clips_from = Some(dir.join("walker.gltf"));
    let Loading::Show(on_disk) = load(&options).expect("loads from disk") else { panic!("described") };
    options.model = Some("t-pose.gltf".into());
    options.motion.clips_from = Some("walker.gltf".into());
    let given = files(&[("t-pose.gltf", &rig), ("walker.gltf", &walker)]);
    let Loading::Show(given) = handed(&options, &given).expect("loads handed over") else {
        panic!("described")
    };
    assert_eq!(given.clips.len(), on_disk.clips.len());
    assert!(given.clips.iter().any(|c| c.name == "Walk"), "the walker's Walk is carried over");
    // The same clips from the same bytes: the same pose at every time asked.
    let skeleton = &given.model.skeleton;
    let rest: Vec<_> = skeleton.bones().iter().map(|b| b.rest).collect();
    for (a, b) in given.clips.iter().zip(on_disk.clips.iter()) {
        assert_eq!(a.name, b.name);
        for k in 0..8 {
            let (mut x, mut y) = (rest.clone(), rest.clone());
            a.sample(skeleton, k as f64 * 0.1, &mut x);
            b.sample(skeleton, k as f64 * 0.1, &mut y);
            assert!(x == y, "{} at {} s differs", a.name, k as f64 * 0.1);
        }
    }
    assert_eq!(given.read, [PathBuf::from("t-pose.gltf"), PathBuf::from("walker.gltf")]);
    // The clips' file missing from those handed over: its one line, as for a missing model.
    let failure = handed(&options, &files(&[("t-pose.gltf", &rig)])).err().expect("refused");
    assert!(failure.message.starts_with("cannot read walker.gltf ("), "{failure}");
}
