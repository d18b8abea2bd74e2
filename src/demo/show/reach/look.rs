//! The chain `--look-at BONE=X,Y,Z` asks for on the model loaded (chapter 19): the head and up to
//! two bones above it, not the skeleton's root where there are others, turning to face the point
//! as a kind of reach (`look_at.rs`). Which bone the name means (`cli/names.rs`), whether it can
//! look and which way its face points are known only once the model is, so those mistakes are told
//! here, one line each.

use crate::demo::cli::look::LookOptions;
use crate::demo::cli::names;
use skinning_method::look_at::{DEFAULT_JOINTS, DEFAULT_LIMIT_DEGREES, Look, forward_at_rest};
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use skinning_method::reach::{Reach, Solver};

/// The look-at chain `options` asks for on `model`, if any, or the one line that says what is wrong.
pub fn chain(model: &Model, options: &LookOptions) -> Result<Option<Reach>, String> {
    let Some((name, target)) = &options.at else { return Ok(None) };
    let skeleton = &model.skeleton;
    let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    let head = names::find("--look-at", "bone", name, &names)?;
    let above = super::flags::above(skeleton, head);
    if above == 0 {
        return Err(format!(
            "--look-at {}: it is the root of the bone tree, which carries the whole model, so it cannot \
             look: name a head, a bone with a neck above it (--info shows the tree)",
            quoted(name)
        ));
    }
    // Below the root, where the tree has the bones: the root turns the whole model.
    let joints = DEFAULT_JOINTS.min(above).max(2);
    let forward = match options.forward {
        Some(axis) => Some(axis.vector()),
        None => forward_at_rest(skeleton, head, model.axes.front().vector()),
    };
    let forward = forward.ok_or(format!(
        "--look-at {}: its rest pose squeezes the model's front to nothing, so it has no forward: give \
         --look-forward AXIS",
        quoted(name)
    ))?;
    let limit = options.limit.unwrap_or(DEFAULT_LIMIT_DEGREES).to_radians();
    let solver = Solver::LookAt(Look { forward, limit, joints });
    Reach::new(skeleton, head, solver, *target)
        .map(Some)
        .map_err(|e| format!("--look-at {}: {e}", quoted(name)))
}

#[cfg(test)]
mod tests {
    use super::chain;
    use crate::demo::cli::look::LookOptions;
    use glam::Vec3;
    use skinning_method::reach::Solver;

    #[test]
    fn the_claw_looks_with_the_bones_below_the_root_and_the_root_cannot() {
        let model = skinning_method::scene::article().expect("the article's scene");
        let options =
            LookOptions { at: Some(("bone31".into(), Vec3::new(0.6, 0.5, 0.0))), ..Default::default() };
        let look = chain(&model, &options).expect("bone31 can look").expect("asked for");
        let names: Vec<&str> = look.bones().iter().map(|&b| model.skeleton.bone(b).name.as_str()).collect();
        assert_eq!(names, ["bone1", "bone2", "bone31"]);
        let Solver::LookAt(how) = look.solver else { panic!("{:?}", look.solver) };
        // The article's front is glTF's, +z, and bone31's rest does not turn: its forward is +z.
        assert_eq!((how.forward, how.limit), (Vec3::Z, 60f32.to_radians()));
        let options = LookOptions { at: Some(("bone1".into(), Vec3::ONE)), ..Default::default() };
        let look = chain(&model, &options).expect("bone1 can look").expect("asked for");
        assert_eq!(look.bones(), [0, 1], "with the root, the one bone above it");
        let options = LookOptions { at: Some(("root".into(), Vec3::ONE)), ..Default::default() };
        let e = chain(&model, &options).expect_err("the root cannot look");
        assert!(e.contains("cannot look") && !e.contains('\n'), "{e}");
        let options = LookOptions { at: Some(("heda".into(), Vec3::ONE)), ..Default::default() };
        let e = chain(&model, &options).expect_err("no such bone");
        assert!(e.contains("for --look-at") && !e.contains('\n'), "{e}");
    }
}
