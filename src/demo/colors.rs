//! The demo's colours, and the weight view's colour scale. Plain numbers: no OpenGL here.

/// Red, green, blue, opacity; 0 to 1.
pub type Rgba = [f32; 4];

pub const GREEN: Rgba = [0.2, 0.85, 0.3, 1.0];
pub const RED: Rgba = [0.95, 0.2, 0.15, 1.0];
pub const BLUE: Rgba = [0.25, 0.5, 1.0, 1.0];
/// The GPU-skinned mesh when it is drawn over the CPU one (`--skinning both`): where the two agree,
/// only magenta shows.
pub const MAGENTA: Rgba = [0.9, 0.25, 0.95, 1.0];
/// The mesh skinned with dual quaternions (`--method dqs`, or over the red LBS one with `--method both`).
pub const ORANGE: Rgba = [1.0, 0.55, 0.1, 1.0];
/// The normals layer's lines: pale, so they read over the lit surface, and none of the layers' colours.
pub const NORMALS: Rgba = [0.75, 1.0, 0.85, 1.0];
/// The bone picked for the weight view.
pub const HIGHLIGHT: Rgba = [1.0, 0.9, 0.2, 1.0];
pub const BACKGROUND: Rgba = [0.06, 0.06, 0.08, 1.0];
/// Point size in pixels at 100% scale, as in the article's `glPointSize(4)`.
pub const POINT_SIZE: f32 = 4.0;

/// Colour of a vertex in the weight view: dark for weight 0, bright for weight 1.
pub fn weight_color(weight: f32) -> Rgba {
    let dark = [0.25, 0.05, 0.05];
    let bright = [1.0, 0.95, 0.4];
    let w = weight.clamp(0.0, 1.0);
    [
        dark[0] + (bright[0] - dark[0]) * w,
        dark[1] + (bright[1] - dark[1]) * w,
        dark[2] + (bright[2] - dark[2]) * w,
        1.0,
    ]
}

/// A colour per vertex of the skinned mesh, and per joint of the bones.
pub struct Colors {
    pub skinned: Vec<Rgba>,
    pub bones: Vec<Rgba>,
    /// The lit surface in its materials' colours: the plain view (not the weight view).
    pub materials: bool,
}

/// Words on the picture: bone names and the corner line (drawn with a dark shadow, see `font.rs`).
pub const TEXT: Rgba = [0.92, 0.92, 0.95, 1.0];

/// The vertex inspector: one colour per influence slot, none of them the layers' colours.
pub const CANDIDATES: [Rgba; 4] =
    [[0.2, 0.9, 0.95, 1.0], [0.75, 0.5, 1.0, 1.0], [0.7, 1.0, 0.3, 1.0], [1.0, 0.55, 0.75, 1.0]];
/// The inspected vertex's linear blend; where dual quaternions put it is drawn in `ORANGE`, as
/// their mesh is.
pub const BLENDED: Rgba = [1.0, 1.0, 1.0, 1.0];

/// A candidate's colour: its slot's colour, dimmer the less it weighs (a third as bright at 0).
pub fn candidate_color(slot: usize, weight: f32) -> Rgba {
    let [r, g, b, a] = CANDIDATES[slot % CANDIDATES.len()];
    let k = 1.0 / 3.0 + 2.0 / 3.0 * weight.clamp(0.0, 1.0);
    [r * k, g * k, b * k, a]
}

/// A candidate's point size: from the mesh's point size at weight 0 to three times it at weight 1.
pub fn candidate_size(point_size: f32, weight: f32) -> f32 {
    point_size * (1.0 + 2.0 * weight.clamp(0.0, 1.0))
}
