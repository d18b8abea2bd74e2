//! The figures of chapters 9, 10 and 13 worked out again, from the files: the Fox's index spaces,
//! the MD5 files chapter 10 prints (loaded by the library as they are on the page), and the sums of
//! chapter 13, shapes and influences.

use super::arm::degrees_about;
use super::format::{listed, point, point_fixed, short};
use super::{Facts, Missing, Work, models};
use crate::markdown::{blocks, read};
use glam::{Mat4, Vec3};
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::skin::{Influence, Joint, Skin};
use std::path::Path;

pub const COMPUTED: [Work; 7] = [
    ("09-joints-value", joints_value),
    ("09-not-joints", not_joints),
    ("10-flags", flags),
    ("10-the-clip", the_clip),
    ("10-local", local_of_a_joint),
    ("13-morph-sum", morph_sum),
    ("13-slots", slots),
];

fn gltf(name: &str) -> Result<skinning_formats::gltf_import::Imported, Missing> {
    skinning_formats::gltf_import::load(&models()?.join(name)).map_err(|e| Missing(e.to_string()))
}

/// Chapter 9, exercise 1: the Fox's JOINTS_0 value 5.
fn joints_value() -> Facts {
    let fox = gltf("Fox.glb")?;
    let slot = fox.skins[0].joints.start + 5;
    let bone = fox.model.skin.joints()[slot].bone;
    let name = &fox.model.skeleton.bone(bone).name;
    Ok(vec![
        format!("its slots start at {}", fox.skins[0].joints.start),
        format!("joint slot {slot}"),
        format!("`skins[0].joints[5]` is node {bone}, {name}"),
        format!("palette[{slot}] = world[{bone}] * offset"),
        format!("`inverseBindMatrices[5]`"),
    ])
}

/// Chapter 9, exercise 2: the Fox's nodes that are not joints.
fn not_joints() -> Facts {
    let fox = gltf("Fox.glb")?;
    let joints = fox.model.joint_bones();
    let synthetic = skinning_formats::gltf_import::SYNTHETIC_ROOT;
    let named: Vec<&str> = (0..fox.model.skeleton.len())
        .filter(|&b| !joints[b])
        .map(|b| fox.model.skeleton.bone(b).name.as_str())
        .filter(|&n| n != synthetic)
        .collect();
    let nodes = fox.model.skeleton.len() - 1;
    Ok(vec![
        format!("{nodes} nodes"),
        format!("{} joints", fox.skins[0].joints.len()),
        listed(&named),
        format!("{} bones", fox.model.skeleton.len()),
    ])
}

/// Chapter 10, exercise 1: a hierarchy line's flags, by the bits of `anim_file.rs`.
fn flags() -> Facts {
    let (flags, first) = (57u8, 10);
    let names = ["Tx", "Ty", "Tz", "Qx", "Qy", "Qz"];
    let bits: Vec<u8> = (0..6).filter(|b| flags & (1 << b) != 0).map(|b| 1 << b).collect();
    let replaced: Vec<&str> = (0..6).filter(|b| flags & (1 << b) != 0).map(|b| names[b]).collect();
    let sum = bits.iter().rev().map(|b| b.to_string()).collect::<Vec<_>>().join(" + ");
    let numbers: Vec<String> = (first..first + replaced.len()).map(|n| n.to_string()).collect();
    Ok(vec![
        format!("{flags} = {sum}"),
        listed(&replaced),
        listed(&numbers.iter().map(String::as_str).collect::<Vec<_>>()),
    ])
}

/// The MD5 files chapter 10 prints: its `md5mesh` block and its `md5anim` block.
fn chapter_files() -> (String, String) {
    let chapter = read(Path::new("docs/10-two-ways-to-store-a-skin.md"));
    let text = |language: &str| {
        let block = blocks(&chapter).into_iter().find(|b| b.language == language);
        block
            .map(|b| b.lines.join("\n"))
            .unwrap_or_else(|| panic!("chapter 10 prints no ```{language} block"))
    };
    (text("md5mesh"), text("md5anim"))
}

/// Chapter 10, exercise 2: the chapter's animation, loaded by the library as it is on the page.
fn the_clip() -> Facts {
    let (mesh, anim) = chapter_files();
    let loaded = skinning_formats::md5_import::load_from_str(&mesh, &[("wave", &anim)])
        .expect("the chapter's files load");
    let (model, clip) = (&loaded.model, &loaded.clips[0]);
    let mut pose = Pose::new(model);
    pose.update(model, clip, 0.05);
    let arm = model.skeleton.find("arm").expect("a joint arm");
    let turn = degrees_about(glam::Quat::from_mat4(&pose.world[arm]), Vec3::Z);
    let root = model.skeleton.find("root").expect("a root");
    let root_x = |t: f64| {
        let mut trs = model.skeleton.bones().iter().map(|b| b.rest).collect::<Vec<_>>();
        clip.sample(&model.skeleton, t, &mut trs);
        short(trs[root].translation.x as f64, 4)
    };
    // 0.05 s at the file's frames a second: half way from frame 0 to frame 1.
    assert_eq!(0.05 * loaded.animations[0].frame_rate as f64, 0.5);
    Ok(vec![
        "half way from frame 0 to frame 1".into(),
        format!("Tx goes from {} to {}", root_x(0.0), root_x(0.1)),
        format!(
            "({} - 1) / {} = {} s",
            loaded.animations[0].frames,
            loaded.animations[0].frame_rate,
            short(clip.duration as f64, 3)
        ),
        format!("{}°", short(turn, 2)),
        point(pose.joint(arm), 4),
        point(pose.joint(root), 4),
    ])
}

/// Chapter 10, exercise 3: arm's local transform with root moved and turned, `parent⁻¹ · world`.
fn local_of_a_joint() -> Facts {
    let (mesh, _) = chapter_files();
    let moved = mesh.replacen("( 0 0 0 ) ( 0 0 0 )", "( 0 1 0 ) ( 0 0 -0.7071068 )", 1);
    assert_ne!(moved, mesh, "the chapter's md5mesh has root at the origin, unturned");
    let loaded = skinning_formats::md5_import::load_from_str(&moved, &[]).expect("loads");
    let rest = loaded.model.skeleton.bone(loaded.model.skeleton.find("arm").expect("arm")).rest;
    // By hand: turn (1, 0, 0) - (0, 1, 0) back a quarter about z.
    let by_hand = glam::Quat::from_rotation_z(-90f32.to_radians()) * Vec3::new(1.0, -1.0, 0.0);
    assert!((by_hand - rest.translation).length() < 1e-6);
    Ok(vec![
        "(1, 0, 0) - (0, 1, 0) = (1, -1, 0)".into(),
        point(rest.translation, 4),
        format!("{}°", short(degrees_about(rest.rotation, Vec3::Z), 2)),
    ])
}

/// Chapter 13, exercise 1: vertex 4267 of the robot with Surprised and Angry at 0.5 each.
fn morph_sum() -> Facts {
    let robot = gltf("RobotExpressive.glb")?;
    let model: &Model = &robot.model;
    let mesh = robot.morphs.iter().find(|m| m.vertices.contains(&4267)).expect("Head_4's morph");
    let at = mesh.vertices.clone().position(|v| v == 4267).expect("in the mesh");
    let target = |name: &str| mesh.targets.iter().position(|n| n == name).expect("a target");
    let (angry, surprised) = (target("Angry"), target("Surprised"));
    let delta = |k: usize| Vec3::from(mesh.positions[at * mesh.targets.len() + k]);
    let modelled = Vec3::from(model.skin.bind()[4267]);
    let sum = modelled + 0.5 * delta(surprised) + 0.5 * delta(angry);
    Ok(vec![
        point_fixed(modelled, 4),
        point_fixed(delta(surprised), 4),
        point_fixed(delta(angry), 4),
        point_fixed(sum, 4),
    ])
}

/// Chapter 13, exercise 2: which five influences sit in the slots, and what the four largest do.
fn slots() -> Facts {
    let weights = [0.1f32, 0.4, 0.05, 0.15, 0.3];
    let joints = (0..5).map(|bone| Joint { bone, offset: Mat4::IDENTITY }).collect();
    let mut skin = Skin::new(joints);
    let influences: Vec<Influence> =
        weights.iter().enumerate().map(|(joint, &weight)| Influence { joint, weight }).collect();
    skin.add_vertex(Vec3::ZERO, &influences).expect("weights summing to 1");
    let kept: Vec<String> = skin.vertex_influences()[0].weights.iter().map(|w| short(*w as f64, 4)).collect();
    let extras: Vec<String> = skin.extras_of(0..1).iter().map(|e| short(e.weight as f64, 4)).collect();
    let mut largest = weights.to_vec();
    largest.sort_by(|a, b| b.total_cmp(a));
    let sum: f32 = largest[..4].iter().sum();
    let divided: Vec<String> = largest[..4].iter().map(|w| short((w / sum) as f64, 4)).collect();
    let largest: Vec<String> = largest[..4].iter().map(|w| short(*w as f64, 4)).collect();
    let list = |v: &[String]| listed(&v.iter().map(String::as_str).collect::<Vec<_>>());
    Ok(vec![
        list(&kept),
        list(&extras),
        list(&largest),
        format!("sum {}", short(sum as f64, 4)),
        list(&divided),
    ])
}
