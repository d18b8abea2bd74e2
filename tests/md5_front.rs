//! MD5 that id did not make (issue 31, item 5): which way an MD5 character faces is found from its
//! skeleton (its toes lie ahead of its ankles), measured on both conventions, id's +x and Blender's
//! -y; `--front AXIS` overrides it; the picture looks at that front and the glTF export writes it
//! as glTF's +z. The old program took every MD5 model for id's (+x), so it showed a Blender
//! character from its side and exported it sideways.

use common::{bob, run, sample_model, scratch};
use glam::Vec3;
use skinning_formats::gltf_import;
use skinning_formats::material::Looks;
use skinning_formats::md5_export::{COMMAND_LINE, export};
use skinning_formats::md5_import::{Imported, load, load_from_str};
use skinning_method::clip::Clip;
use skinning_method::model::{Axes, Axis, Model};

/// `model` written as MD5 and read back, its shaders' pictures left beside it; as another program
/// would have written it (`stranger`: its `commandline` not this program's, so the loader finds
/// the front from the feet), or as this one did.
fn through_md5_as(model: &Model, looks: &Looks, clips: &[Clip], stranger: bool) -> Imported {
    let files = export(model, looks, clips).expect("the model exports");
    let animations: Vec<(&str, &str)> =
        files.animations.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let mesh = match stranger {
        true => files.mesh.replacen(COMMAND_LINE, "written by another program", 1),
        false => files.mesh,
    };
    load_from_str(&mesh, &animations).expect("our own files load")
}

fn through_md5(model: &Model, looks: &Looks, clips: &[Clip]) -> Imported {
    through_md5_as(model, looks, clips, true)
}

#[test]
fn a_model_this_program_wrote_comes_back_facing_the_way_it_was_shown() {
    // The Fox told it faces +y, though its feet point +x: written with +y as id's +x, its feet
    // point -x in the file. Read back as another program's, the feet turn it half round; as this
    // program's, it faces the way it was shown: every vertex where it was, in glTF's axes.
    let Some(path) = sample_model("Fox.glb") else { return };
    let gltf = gltf_import::load(&path).expect("it loads");
    let mut told = through_md5(&gltf.model, &gltf.looks, &[]).model;
    told.axes = Axes::new(Axis::PosZ, Axis::PosY).unwrap();
    let shown: Vec<Vec3> = told.skin.bind_positions().map(|p| told.axes.to_gltf(p)).collect();
    let size = shown.iter().fold(0.0f32, |m, p| m.max(p.length()));
    for (stranger, turned) in [(true, true), (false, false)] {
        let back = through_md5_as(&told, &Looks::default(), &[], stranger);
        let again: Vec<Vec3> = back.model.skin.bind_positions().map(|p| back.model.axes.to_gltf(p)).collect();
        let far = shown.iter().zip(&again).map(|(a, b)| a.distance(*b)).fold(0.0f32, f32::max);
        assert_eq!(far > 0.5 * size, turned, "written by another program {stranger}: {far} of {size}");
        assert_eq!(back.front.written_here, !stranger);
    }
}

#[test]
fn the_feet_say_which_way_an_md5_character_faces_on_both_conventions() {
    let dir = scratch("md5-front");
    // Bob as Blender writes him (-y), and the same Bob turned to id's front (+x) and to +y.
    let mut cases: Vec<(String, Imported, Axis)> = Vec::new();
    for (name, ahead, axis) in [
        ("Blender's Bob", Vec3::NEG_Y, Axis::NegY),
        ("id's Bob", Vec3::X, Axis::PosX),
        ("Bob facing +y", Vec3::Y, Axis::PosY),
    ] {
        let path = bob::write(&dir.join(name.replace(' ', "_")), ahead);
        cases.push((name.to_string(), load(&path).expect("Bob loads"), axis));
    }
    // The sample characters written as MD5 in id's axes (+x), and again as Blender would, facing
    // -y: told their front is +y, the export turns +y to id's +x, so their true front goes to -y.
    for file in ["Fox.glb", "RobotExpressive.glb"] {
        // Without the sample models (it says SKIPPED), the Bobs and the arm are still checked.
        let Some(path) = sample_model(file) else { continue };
        let gltf = gltf_import::load(&path).expect("it loads");
        let id = through_md5(&gltf.model, &gltf.looks, &[]);
        let mut told = id.model.clone();
        told.axes = Axes::new(Axis::PosZ, Axis::PosY).unwrap();
        let blender = through_md5(&told, &id.looks, &[]);
        cases.push((format!("{file} in id's axes"), id, Axis::PosX));
        cases.push((format!("{file} as Blender writes it"), blender, Axis::NegY));
    }
    for (name, imported, axis) in &cases {
        let front = &imported.front;
        println!(
            "{name}: the feet's bones sum to ({:.2}, {:.2}) of {:.2} along the ground: front {} ({})",
            front.sum.x,
            front.sum.y,
            front.length,
            front.axis,
            front.why()
        );
        assert_eq!((front.axis, front.from_feet), (*axis, true), "{name}");
        assert_eq!(imported.model.axes, Axes::new(Axis::PosZ, *axis).unwrap(), "{name}");
    }
    // The article's arm has no feet: id's +x stands.
    let arm = through_md5(&skinning_method::scene::article().unwrap(), &Looks::default(), &[]);
    assert_eq!((arm.front.axis, arm.front.from_feet), (Axis::PosX, false));
}

/// The rest-pose positions of the glTF file the program exports from `model` with `flags`.
fn exported_positions(model: &std::path::Path, flags: &[&str], out: &std::path::Path) -> Vec<Vec3> {
    let mut args = vec!["--model", model.to_str().unwrap(), "--export-gltf", out.to_str().unwrap()];
    args.extend(flags);
    let said = run(&args);
    assert!(said.status.success(), "{}", String::from_utf8_lossy(&said.stderr));
    let back = gltf_import::load(out).expect("the export loads");
    back.model.skin.bind_positions().collect()
}

#[test]
fn a_blender_md5_is_shown_and_exported_facing_forward_and_front_overrides() {
    let dir = scratch("md5-front-export");
    let blender = bob::write(&dir.join("blender"), Vec3::NEG_Y);
    let id = bob::write(&dir.join("id"), Vec3::X);
    // Both Bobs, written as glTF, stand the same way: their toes ahead along +z.
    let from_blender = exported_positions(&blender, &[], &dir.join("blender.glb"));
    let from_id = exported_positions(&id, &[], &dir.join("id.glb"));
    for (v, (a, b)) in from_blender.iter().zip(&from_id).enumerate() {
        assert!(a.abs_diff_eq(*b, 1e-4), "vertex {v}: {a} from Blender's Bob, {b} from id's");
    }
    let (ankle, toe) = (from_blender[4], from_blender[5]);
    assert!(toe.z - ankle.z > 6.0, "the toe {toe} lies ahead of the ankle {ankle} along +z");
    // --front x takes Blender's Bob for id's: written sideways, as the old program wrote him.
    let sideways = exported_positions(&blender, &["--front", "x"], &dir.join("sideways.glb"));
    let (ankle, toe) = (sideways[4], sideways[5]);
    assert!(ankle.x - toe.x > 6.0 && (toe.z - ankle.z).abs() < 1.0, "sideways: {ankle} {toe}");
    // --info says which way it faces and why, and that --front said otherwise when it does.
    let info = run(&["--model", blender.to_str().unwrap(), "--info"]);
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(info.contains("axes: up +z, front -y (its feet point along -y, toes ahead of ankles; --front AXIS says otherwise)"), "{info}");
    let info = run(&["--model", blender.to_str().unwrap(), "--info", "--front", "+x"]);
    assert!(String::from_utf8_lossy(&info.stdout).contains("axes: up +z, front +x (given by --front)"));
    // A front along up, or no axis at all: one line, exit 2.
    for (front, says) in [
        ("z", "--front +z lies along the model's up, +z; a front lies across it: +x, -x, +y, -y"),
        ("w", "--front wants the axis the model faces"),
    ] {
        let out = run(&["--model", blender.to_str().unwrap(), "--front", front, "--info"]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(said.contains(says) && said.trim_end().lines().count() == 1, "{said}");
    }
}

/// Bob as id's models are made (the hellknight): his bind pose faces -y, and his clip `idle` turns
/// the whole body a quarter turn about z through `origin`, to face +x as he plays.
fn id_style_bob(dir: &std::path::Path) -> std::path::PathBuf {
    let mesh = bob::write(dir, Vec3::NEG_Y);
    std::fs::remove_file(dir.join("walk.md5anim")).unwrap();
    let walk = bob::walk(Vec3::NEG_Y);
    // origin's baseframe line is the first: its orientation +90° about z, stored as id stores it,
    // x y z of the quaternion whose w is negative.
    let at = walk.find("baseframe {\n").expect("a baseframe") + "baseframe {\n".len();
    let end = at + walk[at..].find('\n').unwrap();
    let turned = walk[at..end].replace(") ( 0 0 0 )", ") ( 0 0 -0.7071068 )");
    std::fs::write(dir.join("idle.md5anim"), format!("{}{turned}{}", &walk[..at], &walk[end..])).unwrap();
    mesh
}

/// The numbers of each line of the block `name { ... }` of an MD5 text (each line's numbers in
/// parentheses: a joint's position and orientation).
fn block(text: &str, name: &str) -> Vec<Vec<f64>> {
    let start = text.find(&format!("{name} {{")).unwrap_or_else(|| panic!("no {name} block"));
    let body = &text[start..start + text[start..].find('}').unwrap()];
    body.lines()
        .skip(1)
        .filter(|l| l.contains('('))
        .map(|l| {
            let inside: String =
                l.split('(').skip(1).map(|p| p.split(')').next().unwrap_or("")).collect::<Vec<_>>().join(" ");
            inside.split_whitespace().map(|n| n.parse().expect("a number")).collect()
        })
        .collect()
}

#[test]
fn the_first_clip_decides_the_front_and_an_md5_round_trip_keeps_every_number() {
    let dir = scratch("md5-front-played");
    let mesh = id_style_bob(&dir.join("knight"));
    let imported = load(&mesh).expect("the id-style Bob loads");
    // The feet say -y in the bind pose and +x as idle plays: +x, with one note naming both.
    assert_eq!(imported.front.axis, Axis::PosX, "{:?}", imported.front);
    assert_eq!(imported.front.turned_by, Some(("idle".to_string(), Axis::NegY)));
    assert_eq!(imported.model.axes, Axes::ID);
    let notes: Vec<&String> = imported.notes.iter().filter(|n| n.contains("faces")).collect();
    assert_eq!(notes.len(), 1, "{:?}", imported.notes);
    assert!(notes[0].contains("-y in its bind pose, +x as its first clip, \"idle\", plays"), "{}", notes[0]);
    // --front silences the note: it says the front itself.
    let said = |extra: &[&str]| {
        let out = run(&[&["--model", mesh.to_str().unwrap(), "--info"], extra].concat());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(said(&[]).contains("note: it faces -y in its bind pose"));
    assert!(!said(&["--front", "x"]).contains("note: it faces"), "{}", said(&["--front", "x"]));

    // Written as MD5 again, every joint's bind pose and baseframe come back (the old program
    // turned the bind pose's -y to +x, and origin's baseframe with it).
    let out = dir.join("out/knight.md5mesh");
    let written = run(&["--model", mesh.to_str().unwrap(), "--export-md5", out.to_str().unwrap()]);
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    let text = |p: std::path::PathBuf| std::fs::read_to_string(p).expect("written");
    for (from, to, name) in
        [("bob.md5mesh", "knight.md5mesh", "joints"), ("idle.md5anim", "idle.md5anim", "baseframe")]
    {
        let file = to;
        let (before, after) =
            (block(&text(dir.join("knight").join(from)), name), block(&text(dir.join("out").join(to)), name));
        assert_eq!(before.len(), after.len(), "{file}");
        for (j, (a, b)) in before.iter().zip(&after).enumerate() {
            // hips' Tz is animated (flags 4): each frame gives its own, and the baseframe's is unused.
            let animated = |i: usize| name == "baseframe" && j == 1 && i == 2;
            let close = |flip: f64| {
                (0..6).all(|i| animated(i) || (a[i] - if i >= 3 { flip * b[i] } else { b[i] }).abs() < 1e-5)
            };
            assert!(close(1.0) || close(-1.0), "{file} joint {j}: {a:?} came back {b:?}");
        }
    }
}
