//! # Skeletal skinning, step by step
//!
//! A mesh follows a moving skeleton. The method lives in a crate of its own, `skinning-method`
//! (`crates/method/`), with no window, no file and no `unsafe` in it; the fast path is
//! `skinning-fast` (`crates/fast/`), the file formats `skinning-formats` (`crates/formats/`), and
//! this package is the program on top: the camera (`camera.rs`) and `src/demo/`, which draws what
//! the method computes. Read it in the book's order, one chapter of `docs/` beside each step, with
//! article 000 ("Skinned Mesh principles and a simplest implementation", n5, 2008) in the other hand:
//!
//! 1. The bones and offsets (`docs/01-bones-and-offsets.md`): [`skeleton`](skinning_method::skeleton): a bone is a coordinate
//!    space; bones form a first-child / sibling tree; world transforms walk down the tree
//!    (`compute_world`); offsets undo the bind pose (`compute_offsets`). [`scene`](skinning_method::scene) builds the
//!    article's five bones.
//! 2. The blend (`docs/02-the-blend.md`): [`skin`](skinning_method::skin): each vertex's bind
//!    position and its influences on the skin's joints (a bone and its offset), and the palette
//!    (`compute_palette`); [`blend`](skinning_method::blend): the loop over the vertices and what
//!    linear blending does to one (`Linear`). `scene`'s `MESH` is the article's 13 vertices and their
//!    weights.
//! 3. Animation (`docs/03-animation.md`): [`clip`](skinning_method::clip): poses as a pure function
//!    of time, keyframes with lerp and slerp, or a procedure; `transform` is the
//!    translation-rotation-scale a keyframe stores; `scene`'s clips `seed`, `bend` and `twist`.
//! 4. One frame, in order (`docs/04-one-frame.md`): [`model`](skinning_method::model): a model;
//!    [`frame`](skinning_method::frame): one frame of the method from clip to skinned positions, its
//!    steps written once (`Pose::run`); `skinning-formats`' `dump` writes every number of it as JSON.
//! 5. One vertex up close (`docs/05-one-vertex.md`): [`inspect`](skinning_method::inspect) takes one
//!    vertex's blend apart,
//!    influence by influence (the program's vertex inspector).
//! 6. GPU skinning (`docs/06-gpu-skinning.md`): the same blend in a vertex shader,
//!    `shaders/skinning.vert`; the program's side of it is in `src/demo/draw/`.
//! 7. The twist and dual quaternions (`docs/07-the-twist-and-dual-quaternions.md`):
//!    [`dual_quat`](skinning_method::dual_quat): the blend's limit and its fix, dual-quaternion
//!    skinning, which blends the joints' motions instead of the positions they give (a frame with
//!    `Method::Dqs`).
//! 8. Normals (`docs/08-normals.md`): [`normals`](skinning_method::normals): what lighting needs, normals that follow the
//!    skin, by the inverse transpose of each vertex's blended matrix; flat normals, from the skinned
//!    triangles, for a mesh without its own.
//! 9. A real model (`docs/09-a-real-model.md`): [`gltf_import`](skinning_formats::gltf_import): a
//!    character from a glTF file, into the same skeleton, skin and clips: the toy and the real thing
//!    are the same code. `gltf_export` is its mirror: the article's scene, or any model loaded,
//!    written as such a file. [`material`](skinning_formats::material) is what the surface looks
//!    like: a base colour, its texture, and the texture coordinates that skinning never moves.
//! 10. Two ways to store a skin (`docs/10-two-ways-to-store-a-skin.md`):
//!     [`md5_import`](skinning_formats::md5_import): article 002's own system, id's MD5 (Doom 3),
//!     into the same skeleton, skin and clips; it stores no bind-pose vertex and no offset, but each
//!     weight's position already in its joint's space, `offset · bind` worked out ahead of time.
//!     `md5_export` is its mirror: the scene on screen (the article's, or a loaded model) written as
//!     MD5.
//! 11. Many clips at once (`docs/11-many-clips-at-once.md`): [`mixer`](skinning_method::mixer): several clips blended
//!     bone by bone on the local poses, before the world transforms: weights, a crossfade, clips
//!     in step, additive layers, and masked layers found by a walk of the first-child / sibling
//!     tree.
//! 12. Reaching (`docs/12-reaching.md`): [`reach`](skinning_method::reach): inverse kinematics, the angles found from
//!     where a hand should be, between the clip and the matrices: the two-bone solve
//!     (`reach/two_bone.rs`: the law of cosines, the aim, the pole; `reach/bend_rule.rs`: which
//!     way a straight limb bends) and CCD for longer chains (`reach/ccd.rs`), on a chain that
//!     measures its own world transforms (`reach/chain.rs`).
//! 13. The other weighted sums (`docs/13-the-other-weighted-sums.md`): [`morph`](skinning_method::morph):
//!     morph targets, a sum of shapes added to the bind pose before the skin's sum of motions moves
//!     it (step 4 of the frame: the pose's copy of the skin in this frame's shape, which the blend
//!     reads); and every influence a file gives a vertex: `skin` keeps four in its slots and the
//!     rest beside them (`skin/extras.rs`), and the blend's second pass (`blend::finish_extras`)
//!     blends those vertices again, whole.
//! 14. Every core and what it costs (`docs/14-every-core.md`): the `skinning-fast` crate:
//!     [`lanes`](skinning_fast::lanes), the fast path beside the readable loop, eight vertices at a
//!     time in the processor's vector lanes, positions and normals from one blended matrix;
//!     [`parallel`](skinning_fast::parallel): each vertex is independent, so chunks of the mesh
//!     blend on different threads, with the same loop and bit for bit the same result;
//!     [`FastPath`](skinning_fast::FastPath), both as a frame's blender; `synthetic` makes a skinned
//!     tube of any size to time the blend on (`cargo bench`); `alloc_count` counts heap
//!     allocations, to show that a steady frame makes none.
//! 15. The program around the method (`docs/15-the-program-around-the-method.md`): the four crates
//!     and what each may use (`tests/layout.rs` checks it); [`camera`] frames the model for
//!     drawing; the rest is `src/demo/`.
//! 16. What bad input gets (`docs/16-what-bad-input-gets.md`): files you did not write.
//!     `skinning-formats`' `model_folder` keeps a model's other files inside its folder, `budget`
//!     bounds what one model may cost in memory, however its objects point at each other, and the
//!     method's `printable` escapes the names in it before they are printed or drawn.

pub mod camera;
