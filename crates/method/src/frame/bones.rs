//! Steps 2 and 3 for the bones, as the frame names them: what may change the local pose before it
//! becomes matrices ([`Adjust`]), and one bone's local matrix ([`local_matrix`]).

use crate::skeleton::BoneId;
use crate::transform::Trs;
use glam::{Mat4, Quat};

/// Step 2 as the frame sees it: a later lesson that changes the bones' local poses after the source
/// gave them (`local`) and before they become matrices, reading the hand bends (`bend`) that step 3
/// will turn in after them. Reaching (`reach.rs`: a list of chains, solved one after the other) is
/// the one the book teaches; the frame runs whichever it is handed and names none.
pub trait Adjust {
    fn adjust(&mut self, local: &mut [Trs], bend: &[Quat]);
}

/// Step 3's first part for one bone: its local `T * R * S`, then its hand bend. The one place this
/// product is made: the frame's matrices, and anything that measures bones before the frame does
/// (a reaching chain, `reach/chain.rs`), call it, so their numbers agree bit for bit.
pub fn local_matrix(local: &[Trs], bend: &[Quat], bone: BoneId) -> Mat4 {
    local[bone].to_mat4() * Mat4::from_quat(bend[bone])
}
