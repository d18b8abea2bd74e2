//! The page's picture: winit's window made from the page's `<canvas id="picture">`, of the size
//! `--size` asks for, and WebGL2 on it, which is OpenGL ES 3.0: glow speaks it with the same calls
//! as the desktop's OpenGL, and the shaders get `#version 300 es` (`draw/gl.rs`).

use super::download::js_error;
use crate::demo::output::failure::Failure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::platform::web::WindowAttributesExtWebSys;
use winit::window::Window;

/// The canvas as winit's window, and its WebGL2 context.
pub struct Canvas {
    pub window: Window,
    element: HtmlCanvasElement,
    context: WebGl2RenderingContext,
}

const NO_WEBGL2: &str = "this browser gives the page no WebGL2 (OpenGL ES 3.0), which the picture needs; \
                         turn on hardware acceleration, or try a recent Firefox or Chromium";

impl Canvas {
    /// The page's canvas, `size` pixels, and WebGL2 on it.
    pub fn new(event_loop: &ActiveEventLoop, size: (u32, u32)) -> Result<Canvas, Failure> {
        let document =
            web_sys::window().and_then(|w| w.document()).ok_or_else(|| no_canvas("no document"))?;
        let canvas: HtmlCanvasElement = (document.get_element_by_id("picture"))
            .ok_or_else(|| no_canvas("no element with id \"picture\""))?
            .dyn_into()
            .map_err(|_| no_canvas("#picture is not a <canvas>"))?;
        // The picture's pixels are the canvas's: --size is in pixels, as on the desktop.
        let attributes = Window::default_attributes()
            .with_title("skinning")
            .with_inner_size(PhysicalSize::new(size.0, size.1))
            .with_canvas(Some(canvas.clone()))
            .with_focusable(true)
            .with_prevent_default(true);
        let window = (event_loop.create_window(attributes))
            .map_err(|e| Failure::new(3, format!("cannot use the page's canvas: {e}")))?;
        // The picture is read back after it is shown (a screenshot, a test), so it is kept; no
        // multisampling, as on the desktop's offscreen picture.
        let options = js_sys::Object::new();
        for (key, value) in [("antialias", false), ("preserveDrawingBuffer", true), ("depth", true)] {
            js_sys::Reflect::set(&options, &key.into(), &JsValue::from_bool(value))
                .map_err(|e| Failure::new(3, js_error(e)))?;
        }
        let context = canvas
            .get_context_with_context_options("webgl2", &options)
            .map_err(|e| Failure::new(3, format!("{NO_WEBGL2} ({})", js_error(e))))?
            .ok_or_else(|| Failure::new(3, NO_WEBGL2))?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| Failure::new(3, NO_WEBGL2))?;
        let canvas = Canvas { window, element: canvas, context };
        canvas.resized(PhysicalSize::new(size.0, size.1));
        Ok(canvas)
    }

    /// The canvas is now `size` pixels on the page: its picture gets as many (winit sizes the
    /// element on the page; the pixels of its picture are ours to set).
    pub fn resized(&self, size: PhysicalSize<u32>) {
        if size.width > 0 && size.height > 0 {
            self.element.set_width(size.width);
            self.element.set_height(size.height);
        }
    }

    /// glow on the canvas's WebGL2 context: one for each renderer (a model opened later gets a
    /// fresh one, on the same context).
    pub fn gl(&self) -> glow::Context {
        glow::Context::from_webgl2_context(self.context.clone())
    }
}

fn no_canvas(why: &str) -> Failure {
    Failure::new(3, format!("the page has no canvas to draw in ({why}); open the page web/build.sh made"))
}
