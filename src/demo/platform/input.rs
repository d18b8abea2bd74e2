//! The keys, the mouse and the fingers, from winit's events to the demo: the same on the desktop's
//! window (`window.rs`) and in the web page's canvas (`web/app.rs`).
//!
//! A left drag orbits, a left click (a press and release that moved less than `CLICK_SLOP`) picks
//! the vertex under it; in reach mode a left press on a joint or a target drags the target; a
//! right drag on a joint bends its bone; the wheel zooms. On the web page a finger is the left
//! button (a drag orbits, a tap inspects) and two fingers pinch to zoom, as the wheel does (the
//! desktop's window hands over no touch events, as before the page). What each key does is
//! the demo's (`show/state/keys.rs`); here a key becomes the text it types.

use crate::demo::show::pointer::{CLICK_SLOP, LeftButton};
use crate::demo::show::state::Demo;
use glam::Vec2;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, Touch, TouchPhase, WindowEvent};
use winit::keyboard::{Key, NamedKey};

/// How far a joint or a vertex may be from the pointer and still be picked, in logical pixels.
const PICK_REACH: f32 = 12.0;

/// A wheel turned by pixels (a touchpad, a browser) moves this many pixels per line of zoom.
const PIXELS_PER_LINE: f32 = 40.0;

/// The text a key types, as `Demo::key` takes it (" " for Space); None for a key that types
/// nothing the demo uses. (Escape is the window's: it quits there.)
pub fn typed(key: &Key) -> Option<&str> {
    match key {
        Key::Named(NamedKey::Space) => Some(" "),
        Key::Character(c) => Some(c.as_str()),
        _ => None,
    }
}

/// Where the pointer is and what its buttons and fingers are doing.
#[derive(Default)]
pub struct Pointer {
    cursor: Vec2,
    /// A left click picks a vertex, a left drag orbits (or, in reach mode, moves a target).
    left: LeftButton,
    /// The fingers on the screen, by winit's id, and where each is.
    fingers: Vec<(u64, Vec2)>,
    /// Two fingers came down: they pinch until all are lifted, and the drag they interrupted ends.
    pinching: bool,
    /// A mouse button is down.
    pressed: bool,
}

impl Pointer {
    /// Hands a mouse or touch `event` to `demo`; the window is `size` pixels, `scale` of them to a
    /// logical pixel. Other events are left alone.
    pub fn event(&mut self, demo: &mut Demo, event: &WindowEvent, size: PhysicalSize<u32>, scale: f64) {
        let size = (size.width, size.height);
        let scale = scale as f32;
        match *event {
            WindowEvent::CursorMoved { position, .. } => {
                self.moved(demo, Vec2::new(position.x as f32, position.y as f32), scale)
            }
            WindowEvent::MouseInput { state, button, .. } => {
                self.pressed = state == ElementState::Pressed;
                match (button, state) {
                    (MouseButton::Left, ElementState::Pressed) => self.left_pressed(demo, size, scale),
                    (MouseButton::Left, ElementState::Released) => self.left_released(demo, size, scale),
                    (MouseButton::Right, ElementState::Pressed) => {
                        demo.start_bend(self.cursor, size, PICK_REACH * scale);
                    }
                    (MouseButton::Right, ElementState::Released) => demo.end_bend(),
                    _ => {}
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(PhysicalPosition { y, .. }) => y as f32 / PIXELS_PER_LINE,
                };
                demo.view.zoom(lines);
            }
            WindowEvent::Touch(touch) => self.touch(demo, touch, size, scale),
            _ => {}
        }
    }

    /// Whether a button or a finger is down: the pointer is dragging, or about to.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn busy(&self) -> bool {
        self.pressed || !self.fingers.is_empty()
    }

    /// The pointer moved to `cursor`: a left drag orbits, a bend or a reach target follows.
    fn moved(&mut self, demo: &mut Demo, cursor: Vec2, scale: f32) {
        if let Some(delta) = self.left.moved(self.cursor, cursor, CLICK_SLOP * scale) {
            demo.view.orbit(delta);
        }
        demo.drag_bend(cursor);
        demo.drag_reach(cursor);
        self.cursor = cursor;
    }

    /// In reach mode a press on a joint or a target drags the target; elsewhere it orbits.
    fn left_pressed(&mut self, demo: &mut Demo, size: (u32, u32), scale: f32) {
        if !demo.start_reach(self.cursor, size, PICK_REACH * scale) {
            self.left.press(self.cursor);
        }
    }

    /// A release that moved less than the slop, and dragged no target, is a click: inspect there.
    fn left_released(&mut self, demo: &mut Demo, size: (u32, u32), scale: f32) {
        let dragged_a_target = demo.end_reach();
        let click = self.left.release() && !dragged_a_target;
        if click {
            demo.click(self.cursor, size, PICK_REACH * scale);
        }
    }

    /// One finger is the left button; a second one turns the gesture into a pinch.
    fn touch(&mut self, demo: &mut Demo, touch: Touch, size: (u32, u32), scale: f32) {
        let at = Vec2::new(touch.location.x as f32, touch.location.y as f32);
        let spread = |fingers: &[(u64, Vec2)]| match fingers {
            [a, b, ..] => Some(a.1.distance(b.1)),
            _ => None,
        };
        let before = spread(&self.fingers);
        match touch.phase {
            TouchPhase::Started => {
                self.fingers.push((touch.id, at));
                if self.fingers.len() == 1 && !self.pinching {
                    self.moved(demo, at, scale);
                    self.left_pressed(demo, size, scale);
                } else if !self.pinching {
                    // The first finger's drag ends where it is, as no click.
                    self.pinching = true;
                    demo.end_reach();
                    self.left.release();
                }
            }
            TouchPhase::Moved => {
                if let Some(finger) = self.fingers.iter_mut().find(|(id, _)| *id == touch.id) {
                    finger.1 = at;
                }
                match (self.pinching, before, spread(&self.fingers)) {
                    (false, _, _) => self.moved(demo, at, scale),
                    (true, Some(was), Some(is)) => demo.view.zoom((is - was) / PIXELS_PER_LINE),
                    _ => {}
                }
            }
            TouchPhase::Ended | TouchPhase::Cancelled => {
                self.fingers.retain(|(id, _)| *id != touch.id);
                if !self.pinching {
                    self.moved(demo, at, scale);
                    match touch.phase {
                        TouchPhase::Ended => self.left_released(demo, size, scale),
                        _ => {
                            demo.end_reach();
                            self.left.release();
                        }
                    }
                }
                self.pinching &= !self.fingers.is_empty();
            }
        }
    }
}
