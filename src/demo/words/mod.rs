//! Words on the picture: a bitmap font drawn as points (`font.rs`), where each word goes
//! (`labels.rs`: bone names, the inspector's terms; `placement.rs`: so that none covers another),
//! the corner line (`status.rs`), and the layer
//! that draws them in window pixels (`draw/text.rs`).

pub mod font;
pub mod labels;
pub mod placement;
pub mod status;
