//! What is shown and how input changes it, with no window and no OpenGL: the model and its clips,
//! from the article or a glTF or MD5 file (`model/load.rs`); the [`state::Demo`] with its clock, view,
//! bent bones and inspected vertex; the morph weights the user holds (`morph.rs`); where and how the
//! skin is blended (`skinned.rs`) and on how
//! many threads (`threads.rs`); what a mouse press means (`pointer.rs`); where the normals layer's
//! lines go (`normal_lines.rs`); the chains that reach for targets (`reach.rs`); a bone's trail
//! (`trail.rs`); a clip's travel, carried on or taken out (`root_motion.rs`); `--crowd`'s other characters (`crowd.rs`); the ground the feet stand on, as lines
//! (`ground_lines.rs`); the check that a frame holds no number past 32-bit floats, as the dump's
//! (`finite.rs`).

pub mod bend;
pub mod clock;
pub mod crowd;
pub mod finite;
pub mod ground_lines;
pub mod layers;
pub mod morph;
pub mod normal_lines;
pub mod pointer;
pub mod reach;
pub mod root_motion;
pub mod scene;
pub mod selection;
pub mod skinned;
pub mod state;
pub mod threads;
pub mod trail;
pub mod view;
