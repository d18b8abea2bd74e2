//! Every influence on the GPU, up to eight: two attribute sets of four.
//!
//! A vertex attribute holds at most four numbers, so the shaders read a vertex's joints and weights
//! four at a time: its slots as `joints` and `weights` (attributes 2 and 3), a fifth to eighth
//! influence as `joints_1` and `weights_1` (attributes 5 and 6), the way glTF stores them in
//! `JOINTS_0` and `JOINTS_1`. A model whose vertices all have four or fewer uploads one set, and its
//! shaders are compiled with `#define INFLUENCES 4`, the article's loop; with more, two sets and
//! `INFLUENCES 8`, the unused ones weighing 0. A vertex with more than eight is refused on the GPU
//! (`model/gpu_fit.rs`: `gpu_can_skin`), and the model is skinned on the CPU, which takes any number.

use glow::HasContext;
use skinning_method::skin::{SLOTS, Skin};

/// Every vertex's influences as the shaders' attributes take them: `4 * sets` joints and as many
/// weights per vertex, its slots and then its extras, the rest joint 0 with weight 0.
pub struct AttributeSets {
    /// 1, or 2 if any vertex has more than four influences.
    pub sets: usize,
    pub joints: Vec<u16>,
    pub weights: Vec<f32>,
}

impl AttributeSets {
    /// The sets for `skin`, which `gpu_can_skin` has passed.
    pub fn of(skin: &Skin) -> AttributeSets {
        let sets = if skin.most_influences() > SLOTS { 2 } else { 1 };
        let per_vertex = sets * SLOTS;
        let mut joints = vec![0; skin.len() * per_vertex];
        let mut weights = vec![0.0; skin.len() * per_vertex];
        for v in 0..skin.len() {
            let at = v * per_vertex;
            for (i, influence) in skin.influences(v).take(per_vertex).enumerate() {
                joints[at + i] = influence.joint as u16;
                weights[at + i] = influence.weight;
            }
        }
        AttributeSets { sets, joints, weights }
    }

    /// How many influences the shaders loop over: their `INFLUENCES`.
    pub fn influences(&self) -> usize {
        self.sets * SLOTS
    }
}

/// Points attributes 2 and 3 (and 5 and 6 for a second set) of the bound vertex array at the
/// `joints` and `weights` buffers, filled from [`AttributeSets`] with `sets` sets.
///
/// # Safety
/// A context is current on this thread, a vertex array is bound and both buffers are alive.
pub unsafe fn influence_attributes(
    gl: &glow::Context,
    joints: glow::Buffer,
    weights: glow::Buffer,
    sets: usize,
) {
    // A vertex's joints are `4 * sets` u16s, its weights `4 * sets` f32s; set s starts 4 * s in.
    let (joint_stride, weight_stride) = ((sets * SLOTS * 2) as i32, (sets * SLOTS * 4) as i32);
    // SAFETY: the caller keeps a context current with the vertex array bound and `joints` and
    // `weights` live buffers holding `sets` sets a vertex (this function's contract); each
    // pointer is an offset inside a vertex's stride of them.
    unsafe {
        for (set, (joint_at, weight_at)) in [(2, 3), (5, 6)].into_iter().take(sets).enumerate() {
            // Integers stay integers: the "I" of glVertexAttribIPointer. The float version would
            // turn joint 3 into 3.0, which a `uvec4` does not read as 3.
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(joints));
            let offset = (set * SLOTS * 2) as i32;
            gl.vertex_attrib_pointer_i32(joint_at, 4, glow::UNSIGNED_SHORT, joint_stride, offset);
            gl.enable_vertex_attrib_array(joint_at);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(weights));
            let offset = (set * SLOTS * 4) as i32;
            gl.vertex_attrib_pointer_f32(weight_at, 4, glow::FLOAT, false, weight_stride, offset);
            gl.enable_vertex_attrib_array(weight_at);
        }
        if sets < 2 {
            // No second set: attribute 5's array stays off, and it reads one constant value. The
            // shaders' `uvec4 joints_1` is never read with four influences, but WebGL refuses a
            // draw whose constant is not of the input's type (floats, unless set this way).
            gl.vertex_attrib_4_u32(5, 0, 0, 0, 0);
        }
    }
}
