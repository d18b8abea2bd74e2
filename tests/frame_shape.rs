//! Step 4 as a stage of the frame (`frame/shape.rs`: `Reshape`): the core's frame blends whatever
//! shape the stage it is handed writes, from the frame's own source and time, and the skin's bind
//! shape when it is handed none. Only the core is used here (the article's scene, its clips, the
//! linear blend): a later lesson such as morph targets plugs in the same way without the frame
//! naming it.

use glam::Vec3A;
use skinning_method::blend::{Linear, blend_run};
use skinning_method::frame::{Frame, Pose, Reshape, Source};
use skinning_method::scene;
use skinning_method::skin::{Shape, Skin};

/// A stage that lifts every vertex along y by the frame's time, and notes the times it was asked.
struct Lifted {
    positions: Vec<Vec3A>,
    asked: Vec<f64>,
}

impl Reshape for Lifted {
    fn reshape<'s>(&'s mut self, skin: &'s Skin, _: &dyn Source, time: f64) -> Shape<'s> {
        self.asked.push(time);
        for (lifted, bind) in self.positions.iter_mut().zip(skin.bind()) {
            *lifted = *bind + Vec3A::Y * time as f32;
        }
        Shape { positions: &self.positions, normals: skin.normals() }
    }
}

#[test]
fn the_frame_blends_the_shape_its_stage_writes_and_else_the_bind_shape() {
    let model = scene::article().expect("the article's scene");
    let clip = &scene::clips().expect("the article's clips")[0];
    let n = model.skin.len();
    let mut stage = Lifted { positions: vec![Vec3A::ZERO; n], asked: Vec::new() };
    let (mut plain, mut lifted) = (Pose::new(&model), Pose::new(&model));
    for time in [0.25, 1.5] {
        plain.run(&model, Frame::new(clip, time)).expect("linear blending takes any palette");
        let frame = Frame { reshape: Some(&mut stage), ..Frame::new(clip, time) };
        lifted.run(&model, frame).expect("linear blending takes any palette");
        // The same bones and palette: step 4 comes after them.
        assert_eq!(lifted.palette, plain.palette, "at {time} s");
        // Without a stage, the bind positions blended; with it, the stage's, bit for bit.
        let blended = |positions: &[Vec3A]| {
            let mut out = vec![Vec3A::NAN; n];
            blend_run(&model.skin, positions, &Linear(&plain.palette), 0..n, &mut out);
            out
        };
        assert_eq!(plain.skinned, blended(model.skin.bind()), "at {time} s");
        assert_eq!(lifted.skinned, blended(&stage.positions), "at {time} s");
        assert_ne!(lifted.skinned, plain.skinned, "at {time} s: the lift moved the mesh");
    }
    // The stage was asked at the frame's times, and the skin's own shape was never changed.
    assert_eq!(stage.asked, [0.25, 1.5]);
    assert_eq!(model.skin.bind(), scene::article().expect("the article's scene").skin.bind());
}
