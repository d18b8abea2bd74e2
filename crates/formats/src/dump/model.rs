//! The model's part of a dump, before its frames (`dump.rs`): the clip's name, who blends and
//! how, the bones, joints, vertices, meshes and morph targets, each number checked first.

use super::format::{BoneOut, InfluenceOut, JointOut, PartOut, VertexOut};
use super::morphs::morphs_out;
use super::overflow::{Overflow, model_overflow};
use serde::Serialize;
use skinning_method::lbs_or_dqs::Method;
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use std::io::{self, Write};

/// The model's part of the dump, before its frames: the clip's name, who blends and how, the
/// bones, joints, vertices, meshes and morph targets.
pub(super) fn write_model(
    out: &mut impl Write,
    model: &Model,
    morphs: &[MeshMorph],
    clip: &str,
    (by, method): (&str, Method),
) -> io::Result<()> {
    let skeleton = &model.skeleton;
    let rest_world = skeleton.rest_world();
    let bones: Vec<BoneOut> = (skeleton.bones().iter().enumerate())
        .map(|(i, bone)| BoneOut {
            name: &bone.name,
            parent: bone.parent,
            first_child: bone.first_child,
            sibling: bone.sibling,
            rest_local: bone.rest.to_mat4().to_cols_array(),
            rest_world: rest_world[i].to_cols_array(),
        })
        .collect();
    let joints: Vec<JointOut> = (model.skin.joints().iter())
        .map(|j| JointOut { bone: j.bone, offset: j.offset.to_cols_array() })
        .collect();
    let normal = |v: usize| model.skin.normals().get(v).map(|n| n.to_array());
    let vertices: Vec<VertexOut> = (model.skin.bind().iter().enumerate())
        .map(|(i, p)| VertexOut {
            bind: p.to_array(),
            normal: normal(i),
            influences: (model.skin.influences(i))
                .map(|i| InfluenceOut { joint: i.joint, weight: i.weight })
                .collect(),
        })
        .collect();
    let parts: Vec<PartOut> = (model.parts.iter())
        .map(|p| PartOut {
            name: &p.name,
            bone: p.bone,
            first: p.vertices.start,
            count: p.vertices.len(),
            skinned: p.skinned,
        })
        .collect();
    if let Some(what) = model_overflow(&bones, &joints, &vertices) {
        return Err(Overflow { frame: None, what }.into_io());
    }
    // The object is written in pieces, so the frames can follow one by one.
    writeln!(out, "{{")?;
    field(out, "clip", &clip)?;
    field(out, "skinning", &by)?;
    field(out, "method", &method.name())?;
    field(out, "bones", &bones)?;
    field(out, "joints", &joints)?;
    field(out, "vertices", &vertices)?;
    field(out, "meshes", &parts)?;
    if !morphs.is_empty() {
        field(out, "morphs", &morphs_out(morphs))?;
    }
    Ok(())
}

/// One `"name": value,` line of the dump's object.
pub(super) fn field(out: &mut impl Write, name: &str, value: &impl Serialize) -> io::Result<()> {
    write!(out, "\"{name}\": ")?;
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out, ",")
}
