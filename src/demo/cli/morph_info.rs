//! `--info`'s lines about morph targets: each mesh that has them, its targets by name, and how far
//! each moves a vertex when fully on (the longest displacement), also as a share of the model's
//! size (the diagonal of the box around its bind positions).

use skinning::model::Model;
use skinning::printable::{printable, quoted};
use std::fmt::Write;

/// The lines, or none for a model without morph targets.
pub fn describe_morphs(model: &Model) -> Vec<String> {
    if model.morphs.is_empty() {
        return Vec::new();
    }
    let size = size(model);
    let mut lines =
        vec!["morph targets (shapes added before the skin; fully on, each moves a vertex up to):".into()];
    for m in &model.morphs {
        let node = printable(&model.skeleton.bone(m.bone).name);
        let mut line = format!("  {} on node {node}, {} vertices:", quoted(&m.name), m.vertices.len());
        for k in 0..m.target_count() {
            let reach = m.reach(k);
            let share = if size > 0.0 { format!(" ({:.1}%)", 100.0 * reach / size) } else { String::new() };
            write!(line, " {} {reach:.3}{share},", printable(&m.target_label(k))).ok();
        }
        lines.push(line.trim_end_matches(',').to_string());
    }
    lines.push(format!(
        "  (percentages of the model's size, {size:.3}: the diagonal of the box around its bind positions)"
    ));
    lines
}

/// The diagonal of the box around the model's bind positions.
fn size(model: &Model) -> f32 {
    let mut points = model.skin.bind_positions();
    let Some(first) = points.next() else { return 0.0 };
    let (min, max) = points.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    min.distance(max)
}
