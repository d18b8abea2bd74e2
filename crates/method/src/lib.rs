//! # Skeletal skinning: the method
//!
//! A mesh follows a moving skeleton. The **core** is article 000's lesson and nothing else: the
//! bone tree, the offsets, the palette, the linear blend, clips, and one frame of the method
//! written once. The **later lessons** come on top of it, each as a layer: normals, dual
//! quaternions, many clips at once, reaching, morph targets, the inspector. Only glam, and no
//! `unsafe`: what is faster lives in `skinning-fast`, what reads files in `skinning-formats`, what
//! draws in the `skinning` program.
//!
//! The list below is the project's one reading list: the modules in the book's order (`docs/`),
//! one chapter beside each, with the chapters that read the other crates and the program in their
//! places (article 000, "Skinned Mesh principles and a simplest implementation", n5, 2008, in the
//! other hand).

#![forbid(unsafe_code)]

// The core: chapters 1 to 4.
pub mod skeleton; // docs/01-bones-and-offsets.md: the bone tree, world transforms, offsets
pub mod transform; // chapter 1: a bone's translation, rotation and scale
pub mod scene; // chapters 1 to 3: the article's five bones, 13-vertex mesh and clips
pub mod skin; // docs/02-the-blend.md: influences, bind positions, the palette
pub mod blend; // chapter 2: the linear blend, one loop over the vertices
pub mod clip; // docs/03-animation.md: poses as a pure function of time
pub mod model; // docs/04-one-frame.md: a model, what a file would load
pub mod frame; // chapter 4: one frame of the method, its steps written once

// The later lessons, each a layer on the core; the other crates' and the program's in their places.
pub mod inspect; // docs/05-one-vertex.md: one vertex's blend taken apart
// docs/06-gpu-skinning.md: shaders/skinning.vert, and the program's src/demo/draw/
pub mod dual_quat; // docs/07-the-twist-and-dual-quaternions.md: dual-quaternion skinning
pub mod normals; // docs/08-normals.md: normals that follow the skin
pub mod lbs_or_dqs; // chapters 7 and 8: the frame's skinner by either method, normals included
// docs/09-a-real-model.md: skinning-formats' gltf_import, gltf_export, material
// docs/10-two-ways-to-store-a-skin.md: skinning-formats' md5_import, md5_export
pub mod mixer; // docs/11-many-clips-at-once.md: many clips at once
pub mod reach; // docs/12-reaching.md: inverse kinematics
pub mod morph; // docs/13-the-other-weighted-sums.md: morph targets, before the blend
// docs/14-every-core.md: skinning-fast's lanes, parallel, fast_path, synthetic, alloc_count
// docs/15-the-program-around-the-method.md: the crates, src/camera.rs, src/demo/
// docs/16-what-bad-input-gets.md: skinning-formats' model_folder and budget, and:
pub mod printable; // names from files made safe to print
pub mod root_motion; // docs/17-root-motion.md: a clip that walks somewhere, loop after loop
pub mod retarget; // docs/18-a-clip-from-another-body.md: another skeleton's clips, carried over
pub mod look_at; // docs/19-looking-at-things.md: a head that turns to face a point
pub mod ground; // docs/20-feet-on-the-ground.md: feet that stand on a slope or on steps
