//! Which vertex the inspector shows, and when its numbers are due in the terminal.
//!
//! `V` steps through the vertices (then back to none), a click picks the vertex nearest the cursor
//! on screen (or none, if nothing is near), `--inspect` starts on one. The numbers are printed
//! when the selection changes, and while paused whenever the frame changes (pausing, a step, a
//! scrub, another clip, a reset, a finished bend: `Demo::key` and `Demo::end_bend` say so), so the
//! terminal holds one table per state the learner looked at, not one per frame.
//!
//! The inspected vertex's numbers come from the CPU's palettes on either road (CPU or GPU
//! skinning), so the inspector works with GPU skinning too ([`inspection`]).

use crate::demo::cli::choices::Methods;
use crate::demo::words::labels::to_pixels;
use glam::{Mat4, Vec2, Vec3A};
use skinning_method::dual_quat::DqPalette;
use skinning_method::frame::Pose;
use skinning_method::inspect::{Inspection, inspect};
use skinning_method::model::Model;
use skinning_method::skin::Shape;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub vertex: Option<usize>,
    /// The numbers of the current state have not been printed yet.
    pub report_due: bool,
}

impl Selection {
    pub fn new(vertex: Option<usize>) -> Selection {
        Selection { vertex, report_due: vertex.is_some() }
    }

    /// `V`: none, then vertex 0, 1, ... the last, then none again.
    pub fn next(&mut self, vertices: usize) {
        let next = self.vertex.map_or(0, |v| v + 1);
        self.set((next < vertices).then_some(next));
    }

    /// A click at `cursor`: the vertex whose point on screen (`on_screen`, by vertex) is nearest,
    /// if one is within `reach` pixels; otherwise none.
    pub fn pick(&mut self, cursor: Vec2, on_screen: impl Iterator<Item = Vec2>, reach: f32) {
        let nearest = on_screen
            .enumerate()
            .map(|(v, p)| (v, p.distance(cursor)))
            .filter(|&(_, d)| d <= reach)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(v, _)| v);
        self.set(nearest);
    }

    fn set(&mut self, vertex: Option<usize>) {
        if vertex != self.vertex {
            self.vertex = vertex;
            self.report_due = vertex.is_some();
        }
    }
}

/// Where each vertex is drawn on screen, in pixels, for a click to pick from: `skinned`, the
/// positions a frame blended (`Demo::click` runs it).
pub fn on_screen(
    skinned: &[Vec3A],
    view_projection: Mat4,
    size: (u32, u32),
) -> impl Iterator<Item = Vec2> + '_ {
    skinned.iter().map(move |&p| to_pixels(view_projection, p.into(), size).unwrap_or(Vec2::INFINITY))
}

/// Vertex `vertex`'s candidates and blends this frame, from the mesh's `shape`; with dual quaternions on, where they put it
/// as well (`dq`: the skinned layer's skinner makes them whenever the method uses them,
/// `SkinnedLayer::ending` and `finish`).
pub fn inspection(
    model: &Model,
    pose: &Pose,
    shape: Shape,
    (method, dq): (Methods, Option<&DqPalette>),
    vertex: usize,
) -> Inspection {
    // The mesh in this frame's shape (step 4's): a morphed vertex is blended from its shape
    // (`morph.rs`).
    let (skin, positions) = (&model.skin, shape.positions);
    let inspection = inspect(skin, positions, &pose.palette, vertex);
    match (method, dq) {
        (Methods::Dqs | Methods::Both, Some(dq)) => {
            inspection.with_dqs(skin, positions, &dq.joints, dq.scale)
        }
        _ => inspection,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v_cycles_through_every_vertex_then_none() {
        let mut s = Selection::default();
        let seen: Vec<Option<usize>> = (0..5)
            .map(|_| {
                s.next(3);
                s.vertex
            })
            .collect();
        assert_eq!(seen, [Some(0), Some(1), Some(2), None, Some(0)]);
    }

    #[test]
    fn a_click_picks_the_nearest_vertex_within_reach_or_clears() {
        let points = [Vec2::new(100.0, 100.0), Vec2::new(110.0, 100.0), Vec2::new(300.0, 50.0)];
        let mut s = Selection::default();
        s.pick(Vec2::new(107.0, 101.0), points.into_iter(), 12.0);
        assert_eq!(s, Selection { vertex: Some(1), report_due: true });
        s.report_due = false;
        // The same vertex again: nothing new to print.
        s.pick(Vec2::new(111.0, 99.0), points.into_iter(), 12.0);
        assert_eq!(s, Selection { vertex: Some(1), report_due: false });
        // Empty space clears the selection.
        s.pick(Vec2::new(200.0, 200.0), points.into_iter(), 12.0);
        assert_eq!(s.vertex, None);
    }
}
