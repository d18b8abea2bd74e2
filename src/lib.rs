//! # Skeletal skinning, step by step
//!
//! A mesh follows a moving skeleton. This crate is the method, with no windows and no OpenGL in it;
//! the `skinning` program (in `src/demo/`) draws what it computes. Read it in this order, with
//! article 000 ("Skinned Mesh principles and a simplest implementation", n5, 2008) in the other hand:
//!
//! 1. [`skeleton`]: a bone is a coordinate space; bones form a first-child / sibling tree; world
//!    transforms walk down the tree (`compute_world`); offsets undo the bind pose (`compute_offsets`).
//! 2. [`skin`]: each vertex's bind position and its influences on the skin's joints (a bone and its
//!    offset); the palette (`compute_palette`) and the blend (`blend`).
//! 3. [`clip`]: poses as a pure function of time: keyframes with lerp and slerp, or a procedure;
//!    [`transform`] is the translation-rotation-scale a keyframe stores.
//! 4. [`scene`]: the article's bones, mesh, skin and motion, in numbers.
//! 5. [`model`]: a model, and one frame of the method in order (`Pose::update`).
//! 6. [`normals`]: what lighting needs: normals that follow the skin, by the inverse transpose of
//!    each vertex's blended matrix; flat normals for a mesh without its own.
//! 7. [`dual_quat`]: the blend's limit and its fix: dual-quaternion skinning, which blends the
//!    joints' motions instead of the positions they give (`Pose::update_with(.., Method::Dqs)`).
//! 8. [`gltf_import`]: a real character from a glTF file, into the same skeleton, skin and clips:
//!    the toy and the real thing are the same code. [`gltf_export`] is its mirror: the article's
//!    scene written as such a file, for Blender or any glTF viewer.
//! 9. [`parallel`]: every core for the blend: each vertex is independent, so chunks of the mesh
//!    blend on different threads, with the same loop and bit for bit the same result.
//!
//! Around the method: [`inspect`] takes one vertex's blend apart, influence by influence (the demo's
//! vertex inspector), [`camera`] frames the model for drawing, [`dump`] writes the numbers as JSON,
//! [`synthetic`] makes a skinned tube of any size for measuring what the blend costs (`cargo bench`),
//! and [`alloc_count`] counts heap allocations, to show that a steady frame makes none. Files you
//! did not write: [`model_folder`] keeps a model's other files inside its folder, and [`printable`]
//! escapes the names in it before they are printed or drawn.

pub mod alloc_count;
pub mod camera;
pub mod clip;
pub mod dual_quat;
pub mod dump;
pub mod gltf_export;
pub mod gltf_import;
pub mod inspect;
pub mod model;
pub mod model_folder;
pub mod normals;
pub mod parallel;
pub mod printable;
pub mod scene;
pub mod skeleton;
pub mod skin;
pub mod synthetic;
pub mod transform;
