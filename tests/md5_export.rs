//! Round trips through MD5 (`md5_export`, then `md5_import`): the article's scene and the Fox come
//! back moving as they did, clip by clip, within 1e-3 of their size; every weight written is
//! `offset · bind`, so the two formulas agree on the files; a scale is baked when it can be and
//! refused in one line when it cannot.

use common::sample_model;
use glam::{Quat, Vec3, Vec3A};
use skinning_formats::gltf_import;
use skinning_formats::material::Looks;
use skinning_formats::md5_export::{Md5Export, export, frame_rate};
use skinning_formats::md5_import::{Imported, REST, load_from_str};
use skinning_method::clip::{Channel, Clip, Motion, Track};
use skinning_method::frame::Pose;
use skinning_method::model::{Axes, Model};
use skinning_method::scene;
use skinning_method::skeleton::{SkeletonBuilder, Trs};
use skinning_method::skin::{Influence, Joint, Skin};

/// `model` and `clips` written as MD5 and read back.
fn round_trip(model: &Model, clips: &[Clip]) -> Imported {
    let files = export(model, &Looks::default(), clips).expect("the model exports");
    let animations: Vec<(&str, &str)> =
        files.animations.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    load_from_str(&files.mesh, &animations).expect("our own files load")
}

/// A Y-up model's point as the MD5 file has it turned back: the exporter writes (z, x, y), id's
/// axes (front +x, up +z) from glTF's (front +z, up +y).
fn unturned(p: Vec3A) -> Vec3 {
    Vec3::new(p.y, p.z, p.x)
}

/// The diagonal of the box around the model's bind positions.
fn size(model: &Model) -> f32 {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in model.skin.bind_positions() {
        (min, max) = (min.min(p), max.max(p));
    }
    (max - min).length()
}

/// For each clip, the largest distance between where the original and the loaded file put any
/// vertex, over 240 times across two loops and every frame time of the first.
fn largest_differences(model: &Model, clips: &[Clip], loaded: &Imported) -> Vec<(String, f32)> {
    let (mut original, mut back) = (Pose::new(model), Pose::new(&loaded.model));
    clips
        .iter()
        .map(|clip| {
            let again =
                loaded.clips.iter().find(|c| c.name == clip.name).expect("each clip comes back by name");
            assert!(
                (again.duration - clip.duration).abs() < 1e-5,
                "{}: {} vs {}",
                clip.name,
                again.duration,
                clip.duration
            );
            let rate = frame_rate(clip);
            let frames = (clip.duration * rate as f32).round() as usize;
            let times = (0..240).map(|k| k as f64 * 2.0 * clip.duration as f64 / 239.0 + 0.0013);
            let mut largest = 0.0f32;
            for t in times.chain((0..frames).map(|k| k as f64 / rate as f64)) {
                original.update(model, clip, t);
                back.update(&loaded.model, again, t);
                for (a, b) in original.skinned.iter().zip(&back.skinned) {
                    largest = largest.max(Vec3::from(*a).distance(unturned(*b)));
                }
            }
            (clip.name.clone(), largest)
        })
        .collect()
}

/// Every stored weight against `offset · bind`: the largest distance, relative to the model's size.
fn largest_disagreement(loaded: &Imported) -> f32 {
    let spread = skinning_formats::md5_import::spread(&loaded.model, &loaded.stored);
    let mut largest = 0.0f32;
    for v in 0..loaded.model.skin.len() {
        for w in loaded.stored.of(v) {
            let article = skinning_formats::md5_import::offset_times_bind(&loaded.model, w.joint, v);
            largest = largest.max(article.distance(w.position));
        }
    }
    assert_eq!(largest, spread.largest, "the spread is the largest disagreement");
    largest / size(&loaded.model)
}

#[test]
fn the_articles_three_clips_come_back_as_the_built_in_scene_moves() {
    let (model, clips) = (scene::article().unwrap(), scene::clips().unwrap());
    let loaded = round_trip(&model, &clips);
    assert_eq!(loaded.model.axes, Axes::ID, "written in id's axes: up +z, front +x");
    let names: Vec<&str> = loaded.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["seed", "bend", "twist", REST], "the files in the order given, then the bind pose");
    // The outline comes back: MD5 has no lines, so they travel as flat triangles.
    assert_eq!((loaded.model.edges.len(), loaded.model.triangles.len()), (model.edges.len(), 0));
    let arm = size(&model);
    for (clip, largest) in largest_differences(&model, &clips, &loaded) {
        println!(
            "article {clip}: largest difference {largest:.2e} ({:.2e} of the arm's size {arm})",
            largest / arm
        );
        assert!(largest <= 1e-3 * arm, "{clip}: {largest}");
        // The keyframed clips' keys fall on frames: they come back all but exactly.
        if clip != "seed" {
            assert!(largest <= 1e-5 * arm, "{clip}: {largest}");
        }
    }
    let disagreement = largest_disagreement(&loaded);
    println!("article: the weights and offset · bind disagree by at most {disagreement:.2e} of the size");
    assert!(disagreement <= 1e-5, "{disagreement}");
}

#[test]
fn the_fox_comes_back_as_its_gltf_moves_in_each_of_its_animations() {
    let Some(path) = sample_model("Fox.glb") else { return };
    let fox = gltf_import::load(&path).expect("Fox.glb loads");
    let loaded = round_trip(&fox.model, &fox.clips);
    let size = size(&fox.model);
    let differences = largest_differences(&fox.model, &fox.clips, &loaded);
    assert_eq!(differences.len(), 3, "Survey, Walk and Run");
    for (clip, largest) in differences {
        println!("Fox {clip}: largest difference {largest:.2e} ({:.2e} of its size {size})", largest / size);
        assert!(largest <= 1e-3 * size, "{clip}: {largest}");
        // Tighter: the Walk turns some joints by exactly half a turn, where w = 0; with x y z
        // written as floats, w came back 3e-4 off and the Walk 7e-5 of the size (`text.rs`).
        assert!(largest <= 1e-5 * size, "{clip}: {largest}");
    }
    let disagreement = largest_disagreement(&loaded);
    println!("Fox: the weights and offset · bind disagree by at most {disagreement:.2e} of the size");
    assert!(disagreement <= 1e-5, "{disagreement}");
    assert_eq!(loaded.model.triangles.len(), fox.model.triangles.len());
}

#[test]
fn the_robot_bound_unscaled_under_a_scaled_armature_comes_back_too() {
    // RobotExpressive: four skins, rigid parts, its armature at scale 100 over joints bound at 1 (so
    // it is written 100 times its bind size, as it stands). Three of its fourteen clips, for time.
    let Some(path) = sample_model("RobotExpressive.glb") else { return };
    let robot = gltf_import::load(&path).expect("RobotExpressive.glb loads");
    let clips: Vec<Clip> = robot
        .clips
        .into_iter()
        .filter(|c| ["Dance", "Walking", "WalkJump"].contains(&c.name.as_str()))
        .collect();
    let loaded = round_trip(&robot.model, &clips);
    let mut pose = Pose::new(&robot.model);
    pose.update(&robot.model, &clips[0], 0.0);
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for &p in &pose.skinned {
        (min, max) = (min.min(p.into()), max.max(p.into()));
    }
    let shown = (max - min).length();
    let mut back = Pose::new(&loaded.model);
    for clip in &clips {
        let again = loaded.clips.iter().find(|c| c.name == clip.name).expect("each clip comes back by name");
        let mut largest = 0.0f32;
        // 24 times across the clip, between frames (7,214 vertices: every frame would take long).
        for k in 0..24 {
            let t = k as f64 * clip.duration as f64 / 24.0 + 0.0013;
            pose.update(&robot.model, clip, t);
            back.update(&loaded.model, again, t);
            for (a, b) in pose.skinned.iter().zip(&back.skinned) {
                largest = largest.max(Vec3::from(*a).distance(unturned(*b)));
            }
        }
        println!(
            "robot {}: largest difference {largest:.2e} ({:.2e} of its size as shown, {shown})",
            clip.name,
            largest / shown
        );
        assert!(largest <= 1e-3 * shown, "{}: {largest}", clip.name);
    }
    let disagreement = largest_disagreement(&loaded);
    println!("robot: the weights and offset · bind disagree by at most {disagreement:.2e} of the size");
    assert!(disagreement <= 1e-5, "{disagreement}");
}

/// Two bones along x, the root at rest scale `scale`, the child turning about z in a clip. Joint
/// `j` is bound with the root at scale `bound[j]` (its offset the inverse of that pose's world), and
/// the bind positions are in the pose the first joint is bound in. Four vertices, two on each bone,
/// one of them half on each.
fn scaled(scale: Vec3, bound: [f32; 2], clip_scale: Option<Vec3>) -> (Model, Vec<Clip>) {
    let skeleton_at = |scale: Vec3| {
        let mut b = SkeletonBuilder::new();
        let root = b.bone_with(
            "root",
            Trs { translation: Vec3::new(0.0, 1.0, 0.0), rotation: Quat::IDENTITY, scale },
        );
        let arm = b.bone("arm", Vec3::new(1.0, 0.0, 0.0));
        b.set_first_child(root, arm);
        b.build().unwrap()
    };
    let bind_world = |joint: usize| skeleton_at(Vec3::splat(bound[joint])).rest_world()[joint];
    let joints = (0..2).map(|bone| Joint { bone, offset: bind_world(bone).inverse() }).collect();
    let at = |bone: usize, p: Vec3| skeleton_at(Vec3::splat(bound[0])).rest_world()[bone].transform_point3(p);
    let w = |joint, weight| Influence { joint, weight };
    let table: [(Vec3, &[Influence]); 4] = [
        (at(0, Vec3::new(0.2, 0.1, 0.0)), &[w(0, 1.0)]),
        (at(0, Vec3::new(0.9, 0.1, 0.0)), &[w(0, 0.5), w(1, 0.5)]),
        (at(1, Vec3::new(0.5, 0.1, 0.0)), &[w(1, 1.0)]),
        (at(1, Vec3::new(0.5, -0.1, 0.0)), &[w(1, 1.0)]),
    ];
    let skin = Skin::from_table(joints, &table).unwrap();
    let model = Model::new(skeleton_at(scale), skin, vec![[0, 1], [1, 2], [2, 3]]).unwrap();
    let turn = |degrees: f32| Quat::from_rotation_z(degrees.to_radians());
    let arm =
        Track { rotation: Some(Channel::linear(&[(0.0, turn(0.0)), (1.0, turn(60.0))])), ..Track::new(1) };
    let mut tracks = vec![arm];
    if let Some(s) = clip_scale {
        tracks.push(Track { scale: Some(Channel::linear(&[(0.0, scale), (1.0, s)])), ..Track::new(0) });
    }
    (model, vec![Clip { name: "wave".into(), duration: 1.0, motion: Motion::Keyframes(tracks) }])
}

#[test]
fn an_even_scale_that_never_changes_is_baked_and_any_other_is_refused_in_one_line() {
    // Bound as it stands, at scale 2: the scale moves into the translations.
    let (model, clips) = scaled(Vec3::splat(2.0), [2.0, 2.0], None);
    let loaded = round_trip(&model, &clips);
    let arm = size(&model);
    for (clip, largest) in largest_differences(&model, &clips, &loaded) {
        assert!(largest <= 1e-5 * arm, "{clip}: baked, it moves as before: {largest}");
    }
    assert!(largest_disagreement(&loaded) <= 1e-5);
    // The arm's joint is 1 along x from the root in the root's space: 2 in the world, so the
    // baked file's animation puts it 2 along (the root's scale moved into its translation).
    let mut pose = Pose::new(&loaded.model);
    pose.update(&loaded.model, &loaded.clips[0], 0.5);
    assert!(unturned(pose.joint(1).into()).abs_diff_eq(Vec3::new(2.0, 1.0, 0.0), 1e-5), "{}", pose.joint(1));

    // Bound at scale 1, standing at 100 (a glTF armature scaled over joints bound unscaled): the
    // mesh is written 100 times its bind size, as the skeleton shows it, and moves as before.
    let (model, clips) = scaled(Vec3::splat(100.0), [1.0, 1.0], None);
    let loaded = round_trip(&model, &clips);
    let shown = 100.0 * size(&model);
    for (clip, largest) in largest_differences(&model, &clips, &loaded) {
        assert!(largest <= 1e-5 * shown, "{clip}: {largest}");
    }
    for (original, &written) in model.skin.bind_positions().zip(loaded.model.skin.bind()) {
        assert!((100.0 * original).abs_diff_eq(unturned(written), 1e-5 * shown), "{original}");
    }
    assert!(largest_disagreement(&loaded) <= 1e-5, "the weights of each vertex agree");

    let uneven = export(&scaled(Vec3::new(1.0, 2.0, 1.0), [1.0; 2], None).0, &Looks::default(), &[])
        .err()
        .expect("refused");
    let uneven = uneven.to_string();
    assert!(
        uneven.starts_with("bone root cannot be written as MD5, which stores no scale: its rest scale is"),
        "{uneven}"
    );
    let (model, clips) = scaled(Vec3::ONE, [1.0; 2], Some(Vec3::splat(1.5)));
    let changing = export(&model, &Looks::default(), &clips).err().expect("refused").to_string();
    assert!(changing.contains("in clip \"wave\" at"), "{changing}");
    // The root bound at 1 and the arm at 2 while both stand at 2, and vertex 1 on both: two
    // factors, and its two weights would not agree where it is.
    let two = export(&scaled(Vec3::splat(2.0), [1.0, 2.0], None).0, &Looks::default(), &[])
        .err()
        .expect("refused")
        .to_string();
    assert!(
        two.contains("bone arm cannot be written as MD5, which stores no scale: it stands at 1 times"),
        "{two}"
    );
    assert!(two.contains("root at 2, and vertex 1 is on both"), "{two}");
    for message in [uneven, changing, two] {
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn names_md5_cannot_hold_are_written_with_underscores_and_a_note() {
    let (model, mut clips) = (scene::article().unwrap(), scene::clips().unwrap());
    // A name that is no file name is made one, and kept whole inside the file (tests/kept_whole.rs).
    clips[0].name = "a/b".into();
    clips[1].name = "A|B".into();
    let files = export(&model, &Looks::default(), &clips).expect("written");
    let stems: Vec<&str> = files.animations.iter().map(|(stem, _)| stem.as_str()).collect();
    assert_eq!(stems, ["a_b", "A_B_2", "twist"]);
    // A double quote cannot go inside the quotes that keep the name, nor a line end: each is `_`.
    clips[0].name = "say \"hi\"\n".into();
    let export = Md5Export::new(&model, &Looks::default(), &clips).expect("written");
    assert_eq!(export.notes.len(), 1, "{:?}", export.notes);
    assert!(
        export.notes[0].ends_with("the clip \"say \"hi\"\\n\" is written \"say _hi__\""),
        "{:?}",
        export.notes
    );
    let mut anim = Vec::new();
    export.write_animation(0, &mut anim).expect("written");
    assert!(
        String::from_utf8_lossy(&anim).contains("commandline \"skinning --export-md5: clip say _hi__\"\n")
    );
}
