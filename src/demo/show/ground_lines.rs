//! The ground `--ground` stands the feet on, as lines the window draws under them (chapter 20),
//! the way root motion's floor grid is drawn (`draw/floor_grid.rs`: as many lines, two ends each).
//! Every end's height is the ground's own, [`Ground::height`], the one the legs reach for.
//!
//! Flat or a slope: a grid of [`GRID_LINES`] lines across and as many along the model's front, a
//! leg's length apart, each end lifted to the ground (a slope's lines are straight, so two ends
//! draw them exactly): a slope's grid is tilted along the front. Steps: [`GRID_LINES`] steps
//! around the origin, each drawn as its top's two edges across, its back and its front, at that
//! step's height; a step's front edge and the next one's back edge stand one riser apart.

use super::reach::feet_chain;
use super::root_motion::GRID_LINES;
use crate::demo::cli::options::Options;
use glam::Vec3;
use skinning_method::ground::Shape;
use skinning_method::model::Model;
use skinning_method::reach::{Reach, Solver};

/// The lines of the ground `--ground` stands `model`'s feet on (none without it), or the line that
/// says why it cannot stand them: the same feet's chain the frame stands (`reach/feet.rs`).
pub fn of(model: &Model, options: &Options) -> Result<Vec<Vec3>, String> {
    Ok(lines(feet_chain(model, options.ground, options.model.is_none())?.as_ref()))
}

/// The lines of the ground `chain` stands on (the feet's chain, `reach/feet.rs`), two ends each,
/// in the model's numbers; none for a chain that does not stand.
pub fn lines(chain: Option<&Reach>) -> Vec<Vec3> {
    let Some((Solver::Ground(ground), feet)) = chain.and_then(|c| Some((c.solver, c.standing()?))) else {
        return Vec::new();
    };
    let leg = feet.legs().map(|(_, length)| length).fold(0.0, f32::max);
    let spacing = match ground.shape {
        Shape::Steps { depth, .. } => depth,
        _ if leg > 0.0 => leg,
        _ => 1.0,
    };
    let (front, left, up) =
        (ground.facing.front, ground.facing.up.cross(ground.facing.front), ground.facing.up);
    let half = (GRID_LINES / 2) as f32 * spacing;
    let lifted = |p: Vec3| p + ground.height(p) * up;
    let mut out = Vec::with_capacity(4 * GRID_LINES);
    for i in 0..GRID_LINES {
        let at = i as f32 * spacing - half;
        if let Shape::Steps { .. } = ground.shape {
            // The step's height from its middle: on its edges the height function is the next one's.
            let height = ground.height(at * front) * up;
            for edge in [at - spacing / 2.0, at + spacing / 2.0] {
                out.extend([edge * front - half * left + height, edge * front + half * left + height]);
            }
        } else {
            for (across, along) in [(front, left), (left, front)] {
                out.extend([lifted(at * across - half * along), lifted(at * across + half * along)]);
            }
        }
    }
    out
}
