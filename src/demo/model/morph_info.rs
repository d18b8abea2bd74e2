//! `--info`'s lines about morph targets: each mesh that has them, its targets by name, and how far
//! each moves a vertex when fully on (the longest displacement), also as a share of the model's
//! size (the diagonal of the box around its bind positions). Lengths are measured in 64-bit floats,
//! so a finite displacement of 3e38 is shown as such, not as the `inf` its square would make in
//! 32-bit floats.

use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use skinning_method::printable::{printable, quoted};
use std::fmt::Write;

/// The lines for `model`'s morph `targets`, or none for a model without.
pub fn describe_morphs(model: &Model, targets: &[MeshMorph]) -> Vec<String> {
    if targets.is_empty() {
        return Vec::new();
    }
    let size = size(model);
    let mut lines =
        vec!["morph targets (shapes added before the skin; fully on, each moves a vertex up to):".into()];
    for m in targets {
        let node = printable(&model.skeleton.bone(m.bone).name);
        let mut line = format!("  {} on node {node}, {} vertices:", quoted(&m.name), m.vertices.len());
        for k in 0..m.target_count() {
            let reach = m.reach(k);
            let share =
                if size > 0.0 { format!(" ({}%)", amount(100.0 * reach / size, 1)) } else { String::new() };
            write!(line, " {} {}{share},", printable(&m.target_label(k)), amount(reach, 3)).ok();
        }
        lines.push(line.trim_end_matches(',').to_string());
    }
    lines.push(format!(
        "  (percentages of the model's size, {}: the diagonal of the box around its bind positions)",
        amount(size, 3)
    ));
    lines
}

/// `x` with `decimals` after the point, or as a power of ten from a million on (`3.000e38`), where
/// every digit of the plain form past the first few would be noise.
fn amount(x: f64, decimals: usize) -> String {
    if x.abs() < 1e6 { format!("{x:.decimals$}") } else { format!("{x:.decimals$e}") }
}

/// The diagonal of the box around the model's bind positions.
fn size(model: &Model) -> f64 {
    let mut points = model.skin.bind_positions();
    let Some(first) = points.next() else { return 0.0 };
    let (min, max) = points.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)));
    min.as_dvec3().distance(max.as_dvec3())
}
