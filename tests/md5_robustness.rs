//! Thousands of damaged MD5 files: every one loads or fails with one line; none panics, none hangs,
//! each takes well under a second.
//!
//! The damage is deterministic (xorshift from fixed seeds), made from the MD5 fixtures: the
//! hand-written model (`common/md5_hand.rs`), the article's scene exported by `md5_export`, and,
//! when `SKINNING_MODELS` is set, the Fox exported the same way (its mesh with its shortest clip).
//! Either the `.md5mesh` or one `.md5anim` is damaged: characters changed (to quotes, braces,
//! signs, line ends...), the text cut short, one token replaced by an edge value (a huge count,
//! -1, NaN, 1e39, a neighbour of itself) or by punctuation, a token or a line deleted or doubled.
//! The library is called in-process under `catch_unwind`, on a worker thread watched for hangs.

use common::damage::{gather, judge, through_the_program};
use common::gltf_build::XorShift;
use common::md5_hand::{ANIM, MESH};
use common::sample_model;
use skinning_formats::md5_import::load_from_str;
use std::time::Instant;

/// Tokens put in place of another: counts and indices at their edges, numbers that are not finite
/// as floats, and the format's punctuation where it does not belong.
const EDGE_TOKENS: [&str; 22] = [
    "0",
    "-1",
    "1",
    "2",
    "4294967296",
    "99999999999999999999",
    "-2147483649",
    "1e39",
    "-1e39",
    "nan",
    "inf",
    "1e-45",
    "0.5",
    "1.0000001",
    "\"\"",
    "\"open",
    "{",
    "}",
    "(",
    ")",
    "//",
    "numverts",
];

/// Characters a changed character becomes.
const CHARACTERS: &[u8] = b"\"{}()-.e/\n 09x\t";

/// One damaged copy of `text`.
fn mutate(text: &str, rng: &mut XorShift) -> String {
    let bytes = text.as_bytes();
    match rng.below(7) {
        // Characters changed (the fixtures are ASCII, so any ASCII byte keeps the text UTF-8).
        0 => {
            let mut out = bytes.to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(out.len());
                out[at] = CHARACTERS[rng.below(CHARACTERS.len())];
            }
            String::from_utf8(out).expect("ASCII stays UTF-8")
        }
        // Cut short.
        1 => text[..rng.below(text.len())].to_string(),
        // A token replaced by an edge value or a neighbour of itself, deleted, or doubled.
        2..=4 => {
            // The token around a random place (the first after it, if that place is whitespace).
            let mut start = rng.below(text.len());
            while start < bytes.len() && bytes[start].is_ascii_whitespace() {
                start += 1;
            }
            while start > 0 && !bytes[start - 1].is_ascii_whitespace() {
                start -= 1;
            }
            let end = (start..bytes.len()).find(|&i| bytes[i].is_ascii_whitespace()).unwrap_or(bytes.len());
            let token = &text[start..end];
            let replacement = match rng.below(EDGE_TOKENS.len() + 4) {
                k if k < EDGE_TOKENS.len() => EDGE_TOKENS[k].to_string(),
                k => match (token.parse::<i64>(), k - EDGE_TOKENS.len()) {
                    (Ok(n), 0) => (n + 1).to_string(),
                    (Ok(n), 1) => (n - 1).to_string(),
                    (_, 2) => String::new(),
                    _ => format!("{token} {token}"),
                },
            };
            format!("{}{replacement}{}", &text[..start], &text[end..])
        }
        // A line deleted or doubled.
        _ => {
            let lines: Vec<&str> = text.lines().collect();
            let k = rng.below(lines.len());
            let mut out: Vec<&str> = lines.clone();
            if rng.below(2) == 0 {
                out.remove(k);
            } else {
                out.insert(k, lines[k]);
            }
            out.join("\n")
        }
    }
}

/// A model to damage: its mesh and animations (name, text), and how many damaged copies to make.
struct Fixture {
    name: &'static str,
    mesh: String,
    animations: Vec<(String, String)>,
    copies: usize,
}

fn exported(
    model: &skinning_method::model::Model,
    clips: &[skinning_method::clip::Clip],
) -> (String, Vec<(String, String)>) {
    let files =
        skinning_formats::md5_export::export(model, &Default::default(), clips).expect("the fixture exports");
    (files.mesh, files.animations)
}

fn fixtures() -> Vec<Fixture> {
    let mut out = vec![Fixture {
        name: "hand",
        mesh: MESH.to_string(),
        animations: vec![("wave".into(), ANIM.into())],
        copies: 3000,
    }];
    // The article with its `bend` clip only: keyframed, 481 frames, at debug speed a few ms a load.
    let (model, clips) =
        (skinning_method::scene::article().unwrap(), skinning_method::scene::clips().unwrap());
    let (mesh, animations) = exported(&model, &clips[1..2]);
    out.push(Fixture { name: "article", mesh, animations, copies: 800 });
    if let Some(path) = sample_model("Fox.glb") {
        let fox = skinning_formats::gltf_import::load(&path).expect("Fox.glb loads");
        let walk: Vec<_> = fox.clips.into_iter().filter(|c| c.name == "Walk").collect();
        let (mesh, animations) = exported(&fox.model, &walk);
        out.push(Fixture { name: "Fox", mesh, animations, copies: 80 });
    }
    out
}

#[test]
fn thousands_of_damaged_md5_files_load_or_fail_with_one_line() {
    let started = Instant::now();
    let (tried, loaded, failures) = gather(|progress| {
        for fixture in fixtures() {
            let mut rng = XorShift(0x2545_F491_4F6C_DD1D ^ fixture.mesh.len() as u64);
            for i in 0..fixture.copies {
                // The mesh or one of the animations is damaged; the others stay whole.
                let which = rng.below(1 + fixture.animations.len());
                let mesh = if which == 0 { mutate(&fixture.mesh, &mut rng) } else { fixture.mesh.clone() };
                let animations: Vec<(String, String)> = (fixture.animations.iter().enumerate())
                    .map(|(a, (name, text))| {
                        (name.clone(), if which == a + 1 { mutate(text, &mut rng) } else { text.clone() })
                    })
                    .collect();
                let borrowed: Vec<(&str, &str)> =
                    animations.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
                let name = fixture.name;
                let load = || load_from_str(&mesh, &borrowed).map(|_| ());
                // Kept for reproducing: the damaged mesh (the animations are the fixture's or damaged).
                let keep = || {
                    let kept = std::env::temp_dir().join(format!("skinning-md5-panic-{name}-{i}.md5mesh"));
                    let _ = std::fs::write(&kept, &mesh);
                    kept.display().to_string()
                };
                if progress.send(judge(&format!("{name} copy {i}"), load, keep)).is_err() {
                    return;
                }
            }
        }
    });
    println!(
        "{tried} damaged MD5 files in {:.1?}: {loaded} loaded, {} refused with one line, {} failures",
        started.elapsed(),
        tried - loaded - failures.len(),
        failures.len()
    );
    assert!(tried >= 3500, "only {tried} files tried");
    // Damage that changes only a number often leaves a valid file: both outcomes must occur.
    assert!(loaded > 100 && tried - loaded > 1000, "{loaded} of {tried} loaded");
    assert!(failures.is_empty(), "{} of {tried}: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}

#[test]
fn damaged_md5_files_through_the_program_exit_0_or_1_with_one_line() {
    let dir = common::scratch("md5-damaged");
    let out = dir.join("dump.json");
    let mut rng = XorShift(7);
    let (mut loaded, mut refused) = (0, 0);
    for i in 0..40 {
        // Each copy in a folder of its own, the mesh or the animation damaged.
        let folder = dir.join(format!("copy{i}"));
        std::fs::create_dir_all(&folder).unwrap();
        let damage_mesh = i % 2 == 0;
        let mesh = if damage_mesh { mutate(MESH, &mut rng) } else { MESH.to_string() };
        let anim = if damage_mesh { ANIM.to_string() } else { mutate(ANIM, &mut rng) };
        std::fs::write(folder.join("hand.md5mesh"), mesh).unwrap();
        std::fs::write(folder.join("wave.md5anim"), anim).unwrap();
        match through_the_program(&folder.join("hand.md5mesh"), &out, &format!("copy {i}")) {
            true => loaded += 1,
            false => refused += 1,
        }
    }
    println!("through the program: {loaded} loaded, {refused} refused");
    assert!(loaded > 0 && refused > 0, "the damage should both pass and fail ({loaded}, {refused})");
}
