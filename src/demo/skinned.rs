//! The skinned layer's two choices, and the work a frame does for them: **where** it is blended
//! ([`Skinning`]: on the CPU, on the GPU, or both, the GPU's in magenta over the CPU's) and **how**
//! ([`Blend`]: linear blend skinning in red, dual quaternions in orange, or both at once).
//!
//! Every frame the CPU walks the tree and makes the palette (`Pose::update_palette`). Then
//! [`blend`] does what the choices need: the CPU blends the methods it draws, and for a GPU-drawn
//! DQS layer it turns the palette into dual quaternions, which the vertex shader blends. The CPU
//! blends on the threads `threads.rs` picks (all the machine's for a big mesh, `parallel.rs`). Dual
//! quaternions take only joints that turn and move (`dual_quat.rs`): when a frame's palette has any
//! other scale, [`refusal`] says so in one line and the program falls back to linear blending.
//! No OpenGL here; `render.rs` draws the [`Layers`].

use super::colors::{MAGENTA, Rgba};
use super::gpu_palette::fits_gpu;
use glam::Vec3A;
use skinning::dual_quat::NotRigid;
use skinning::model::{Method, Model, Palette, Pose};
use skinning::parallel::BlendThreads;

/// Where the skinned layer is blended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skinning {
    /// The tutorial's road: `skin::blend` on the CPU, positions uploaded every frame.
    Cpu,
    /// The next lesson: the same blend in a vertex shader (`shaders/skinning.vert`, or
    /// `skinning_dqs.vert` for dual quaternions).
    Gpu,
    /// Both, the GPU result drawn in another colour over the CPU one.
    Both,
}

impl Skinning {
    pub fn name(self) -> &'static str {
        match self {
            Skinning::Cpu => "cpu",
            Skinning::Gpu => "gpu",
            Skinning::Both => "both",
        }
    }

    pub fn next(self) -> Skinning {
        match self {
            Skinning::Cpu => Skinning::Gpu,
            Skinning::Gpu => Skinning::Both,
            Skinning::Both => Skinning::Cpu,
        }
    }
}

/// How the skinned layer is blended: one method, or both at once to compare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blend {
    /// Linear blend skinning, the article's (`skin::blend`), in red.
    Lbs,
    /// Dual-quaternion skinning (`dual_quat::blend_dqs`), in orange.
    Dqs,
    /// Compare: DQS in orange drawn over LBS in red.
    Both,
}

impl Blend {
    pub fn name(self) -> &'static str {
        match self {
            Blend::Lbs => "lbs",
            Blend::Dqs => "dqs",
            Blend::Both => "lbs+dqs",
        }
    }

    pub fn next(self) -> Blend {
        match self {
            Blend::Lbs => Blend::Dqs,
            Blend::Dqs => Blend::Both,
            Blend::Both => Blend::Lbs,
        }
    }

    /// The method of the first (or only) skinned layer: DQS alone, else LBS.
    pub fn first(self) -> Method {
        if self == Blend::Dqs { Method::Dqs } else { Method::Lbs }
    }
}

/// Step 4 for this frame, after `Pose::update_palette`: `pose.skinned` gets the first method's
/// positions if the CPU draws, `compared` the DQS ones in compare mode; the DQS palette is made if
/// any layer needs it. The CPU blends on `threads` (all of them for a big enough mesh, the same
/// result either way). An error means DQS cannot blend this palette; LBS always can.
pub fn blend(
    pose: &mut Pose,
    compared: &mut [Vec3A],
    model: &Model,
    skinning: Skinning,
    method: Blend,
    threads: &BlendThreads,
) -> Result<(), NotRigid> {
    if method != Blend::Lbs {
        pose.update_dq_palette()?;
    }
    if skinning == Skinning::Gpu {
        // The vertex shader blends; the CPU's part ends with the palettes it reads.
        return Ok(());
    }
    let (skin, skinned) = (&model.skin, &mut pose.skinned);
    match method {
        Blend::Lbs => threads.blend(skin, &pose.palette, skinned),
        Blend::Dqs => threads.blend_dqs(skin, &pose.dq_palette, pose.dq_scale, skinned),
        Blend::Both => {
            threads.blend(skin, &pose.palette, skinned);
            threads.blend_dqs(skin, &pose.dq_palette, pose.dq_scale, compared);
        }
    }
    Ok(())
}

/// One line saying why DQS cannot blend `model` at `time`, naming the joint's bone.
pub fn refusal(model: &Model, e: &NotRigid, time: f64) -> String {
    let bone = model.skin.joints().get(e.joint).map_or("?", |j| &model.skeleton.bone(j.bone).name);
    format!(
        "dual quaternions cannot skin this model at {time:.2} s: joint {} (bone {bone:?}) {}, and they \
         hold only a rotation, a translation and one scale shared by every joint; linear blending \
         (--method lbs) takes any joint",
        e.joint, e.problem
    )
}

/// `G`: where the skinned layer is blended next, unless the model has too many joints for the GPU.
pub fn next_skinning(skinning: Skinning, model: &Model) -> Result<Skinning, String> {
    let next = skinning.next();
    if next != Skinning::Cpu {
        fits_gpu(model.skin.joints().len())?;
    }
    Ok(next)
}

/// `D`: how the skinned layer is blended next, unless this frame's palette is one dual quaternions
/// cannot hold.
pub fn next_method(method: Blend, pose: &mut Pose, model: &Model, time: f64) -> Result<Blend, String> {
    let next = method.next();
    if next != Blend::Lbs {
        pose.update_dq_palette().map_err(|e| refusal(model, &e, time))?;
    }
    Ok(next)
}

/// The skinned layers a frame draws, back to front.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layers<'a> {
    /// Blended on the CPU by the first method (LBS, or DQS alone): red or orange, or the weight view.
    pub cpu: Option<&'a [Vec3A]>,
    /// Compare mode: the CPU's DQS positions, in orange.
    pub cpu_compared: Option<&'a [Vec3A]>,
    /// Blended on the GPU by the first method, from this palette.
    pub gpu: Option<Palette<'a>>,
    /// Compare mode: the GPU's DQS blend, from this palette.
    pub gpu_compared: Option<Palette<'a>>,
    /// With `--skinning both`: every GPU layer in this one colour, over the CPU's.
    pub gpu_color: Option<Rgba>,
}

/// What to draw of the skinned mesh for the choices (nothing if it is hidden).
pub fn layers<'a>(
    pose: &'a Pose,
    compared: &'a [Vec3A],
    skinning: Skinning,
    method: Blend,
    shown: bool,
) -> Layers<'a> {
    if !shown {
        return Layers::default();
    }
    let (cpu, gpu, compare) = (skinning != Skinning::Gpu, skinning != Skinning::Cpu, method == Blend::Both);
    Layers {
        cpu: cpu.then_some(&pose.skinned[..]),
        cpu_compared: (cpu && compare).then_some(compared),
        gpu: gpu.then(|| pose.palette_for(method.first())),
        gpu_compared: (gpu && compare).then(|| pose.palette_for(Method::Dqs)),
        // Both: the GPU's result in its own colour, over the CPU's, so any disagreement shows.
        gpu_color: (skinning == Skinning::Both).then_some(MAGENTA),
    }
}

#[cfg(test)]
mod tests {
    use super::super::gpu_palette::MAX_GPU_JOINTS;
    use super::*;
    use glam::{Mat4, Vec3};
    use skinning::scene;

    fn article() -> (Model, Pose) {
        let model = scene::article().expect("the article's scene is valid");
        let mut pose = Pose::new(&model);
        let twist = scene::twist().expect("the twist clip");
        pose.update_palette(&model, &twist, 1.5);
        (model, pose)
    }

    #[test]
    fn each_choice_blends_what_it_draws() {
        let (model, pose) = article();
        let n = model.skin.len();
        let (mut lbs, mut dqs) = (pose.clone(), pose.clone());
        lbs.blend_with(&model, Method::Lbs).expect("LBS");
        dqs.blend_with(&model, Method::Dqs).expect("rigid");
        assert_ne!(lbs.skinned, dqs.skinned, "at 150 degrees the two methods differ");
        // Every skin on two threads, even these 13 vertices: the same numbers as one thread's.
        let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
        for (skinning, method) in [Skinning::Cpu, Skinning::Gpu, Skinning::Both]
            .into_iter()
            .flat_map(|s| [Blend::Lbs, Blend::Dqs, Blend::Both].map(|m| (s, m)))
        {
            let (mut p, mut compared) = (pose.clone(), vec![Vec3A::ZERO; n]);
            blend(&mut p, &mut compared, &model, skinning, method, &threads).expect("rigid");
            let cpu = skinning != Skinning::Gpu;
            let expected = if !cpu {
                &pose.skinned
            } else if method == Blend::Dqs {
                &dqs.skinned
            } else {
                &lbs.skinned
            };
            assert_eq!(&p.skinned, expected, "{skinning:?} {method:?}");
            let compared_expected =
                if cpu && method == Blend::Both { &dqs.skinned[..] } else { &[Vec3A::ZERO; 13][..] };
            assert_eq!(&compared[..], compared_expected, "{skinning:?} {method:?}");
            // The DQS palette is ready whenever a layer reads it.
            if method != Blend::Lbs {
                assert_eq!(p.dq_palette, dqs.dq_palette, "{skinning:?} {method:?}");
            }
            let l = layers(&p, &compared, skinning, method, true);
            let drawn =
                (l.cpu.is_some(), l.cpu_compared.is_some(), l.gpu.is_some(), l.gpu_compared.is_some());
            let compare = method == Blend::Both;
            let gpu = skinning != Skinning::Cpu;
            assert_eq!(drawn, (cpu, cpu && compare, gpu, gpu && compare), "{skinning:?} {method:?}");
            if gpu {
                let first_is_dqs = matches!(l.gpu, Some(Palette::Dqs { .. }));
                assert_eq!(first_is_dqs, method == Blend::Dqs, "{skinning:?} {method:?}");
            }
            assert!(matches!(l.gpu_compared, None | Some(Palette::Dqs { .. })));
            assert_eq!(l.gpu_color.is_some(), skinning == Skinning::Both);
            assert!(layers(&p, &compared, skinning, method, false).cpu.is_none());
        }
    }

    /// A chain of `bones` bones, one joint each, with one vertex on the last: a model of any size.
    pub fn chain(bones: usize) -> Model {
        let mut b = skinning::skeleton::SkeletonBuilder::new();
        for i in 0..bones {
            b.bone(&format!("bone{i}"), Vec3::X);
            if i > 0 {
                b.set_first_child(i - 1, i);
            }
        }
        let skeleton = b.build().expect("a chain is a tree");
        let joints = (0..bones).map(|bone| skinning::skin::Joint { bone, offset: Mat4::IDENTITY }).collect();
        let on_last = [skinning::skin::Influence { joint: bones - 1, weight: 1.0 }];
        let skin = skinning::skin::Skin::from_table(joints, &[(Vec3::ZERO, &on_last[..])]).expect("valid");
        Model::new(skeleton, skin, vec![]).expect("sizes match")
    }

    #[test]
    fn a_model_too_big_for_the_gpu_palette_stays_on_the_cpu() {
        assert!(fits_gpu(MAX_GPU_JOINTS).is_ok());
        let why = fits_gpu(MAX_GPU_JOINTS + 1).expect_err("one joint too many");
        assert!(why.contains("257") && why.contains("256") && !why.contains('\n'), "{why}");
        // At the limit G switches; one past it, G is refused with that line.
        assert_eq!(next_skinning(Skinning::Cpu, &chain(MAX_GPU_JOINTS)), Ok(Skinning::Gpu));
        assert_eq!(next_skinning(Skinning::Cpu, &chain(MAX_GPU_JOINTS + 1)), Err(why));
        assert_eq!(next_skinning(Skinning::Both, &chain(MAX_GPU_JOINTS + 1)), Ok(Skinning::Cpu));
    }

    #[test]
    fn d_is_refused_when_a_joint_is_scaled() {
        let (model, mut pose) = article();
        assert_eq!(next_method(Blend::Lbs, &mut pose, &model, 1.5), Ok(Blend::Dqs));
        // bone31 stretched to twice its height: no dual quaternion holds that.
        pose.local[scene::BONE31] *= Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
        pose.compute(&model);
        let why = next_method(Blend::Lbs, &mut pose, &model, 1.5).expect_err("scaled");
        assert!(why.contains("joint 3 (bone \"bone31\") is scaled by (1, 2, 1)"), "{why}");
        assert!(why.contains("1.50 s") && !why.contains('\n'), "{why}");
        // Back to LBS is always fine; and the frame's blend says the same.
        assert_eq!(next_method(Blend::Both, &mut pose, &model, 1.5), Ok(Blend::Lbs));
        let mut compared = vec![Vec3A::ZERO; model.skin.len()];
        let one = BlendThreads::one();
        let e = blend(&mut pose, &mut compared, &model, Skinning::Cpu, Blend::Dqs, &one).expect_err("scaled");
        assert_eq!(e.joint, scene::BONE31);
    }
}
