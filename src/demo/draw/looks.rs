//! What the lit surface looks like in the plain view: each material's base colour, and its texture
//! read at each point's texture coordinates (`material.rs`). The weight view keeps its own colours.
//!
//! The triangles are drawn a run at a time, one run per material ([`GpuLooks::draw`]): the factor and
//! the texture are uniforms of that draw. A texture is the image decoded on the CPU (PNG, JPEG or TGA,
//! `material::decode_smaller`), halved as it is decoded where the model's textures pass its budget
//! of pixels or a side is longer than the GPU's largest texture (`material::fit`, `fit_side`), and
//! uploaded once, its OpenGL error checked, with mipmaps so a character seen small does not
//! shimmer; glTF's default sampler repeats it past 0 and 1. Its bytes are colours as the screen shows them
//! (sRGB); the factor is linear, so it is raised to 1/2.2 once here to match, and their product is
//! what the screen shows (the 2.2 power of a product is the product of the powers). The texture
//! coordinates are attribute 7 of the surface's vertex array (`texcoord_attribute`).

use super::gl::{GlError, as_bytes, gl_size, rgba_texture_size};
use crate::demo::output::console::say;
use glow::HasContext;
use skinning_formats::material::{Image, Looks, Pixels, decode_smaller, fit, fit_side};

/// One run of triangles drawn with one material.
struct Draw {
    /// The run's first triangle and how many.
    first: usize,
    count: usize,
    /// The factor as the screen shows it.
    base_color: [f32; 4],
    texture: Option<glow::Texture>,
    /// Below this alpha a point is not drawn; below 0, never.
    cutoff: f32,
    /// False for triangles without a material: they keep the skinned mesh's own colour.
    material: bool,
}

/// Every material's draw, and the textures they use.
pub struct GpuLooks {
    draws: Vec<Draw>,
    textures: Vec<glow::Texture>,
    /// The plain view: the materials' colours (false: the vertices' own, the weight view's).
    pub on: bool,
}

/// Where a program's material uniforms are.
pub struct MaterialUniforms {
    use_material: Option<glow::UniformLocation>,
    base_color: Option<glow::UniformLocation>,
    textured: Option<glow::UniformLocation>,
    alpha_cutoff: Option<glow::UniformLocation>,
}

impl MaterialUniforms {
    pub fn new(gl: &glow::Context, program: glow::Program) -> MaterialUniforms {
        // SAFETY: the caller keeps the context current on this thread,
        // and every handle used was created here or by the caller and not yet deleted.
        unsafe {
            let at = |name: &str| gl.get_uniform_location(program, name);
            MaterialUniforms {
                use_material: at("use_material"),
                base_color: at("base_color"),
                textured: at("textured"),
                alpha_cutoff: at("alpha_cutoff"),
            }
        }
    }
}

impl GpuLooks {
    /// The model's materials, their textures decoded and uploaded. An image that cannot be decoded
    /// or uploaded is said once, and its material drawn in its factor alone.
    pub fn new(gl: &glow::Context, looks: &Looks, triangles: usize) -> Result<GpuLooks, GlError> {
        let materials = &looks.materials;
        // SAFETY: `gl`'s context is current (the caller's); a query of the largest texture side, no
        // names, no memory of ours.
        let max_side = unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE) }.max(1) as u32;
        // The halvings that fit the model's budget of pixels, as loading said (`gltf_import/images.rs`).
        let sizes: Vec<(u32, u32)> = materials.images.iter().map(|i| (i.width, i.height)).collect();
        let halvings = fit(&sizes, materials.pixel_budget);
        let mut textures = Vec::new();
        let mut texture_of = Vec::with_capacity(materials.images.len());
        for (i, image) in materials.images.iter().enumerate() {
            let texture = match texture(gl, i, image, halvings[i], max_side) {
                Ok(texture) => Some(texture),
                Err(why) => {
                    say(&format!("note: image {i}: {why}; drawn without its texture"));
                    None
                }
            };
            textures.extend(texture);
            texture_of.push(texture);
        }
        // Runs in order; the triangles without a material keep the skinned mesh's colour (red).
        let mut draws = Vec::new();
        let mut next = 0;
        let plain = |first, count| Draw {
            first,
            count,
            base_color: [1.0; 4],
            texture: None,
            cutoff: -1.0,
            material: false,
        };
        let total = triangles;
        for run in &materials.runs {
            let (start, end) = (run.triangles.start.min(total), run.triangles.end.min(total));
            if start > next {
                draws.push(plain(next, start - next));
            }
            let material = run.material.and_then(|m| materials.list.get(m));
            let mut draw = plain(start, end.saturating_sub(start));
            if let Some(m) = material {
                let [r, g, b, a] = m.base_color.to_array();
                draw.base_color = [r.powf(1.0 / 2.2), g.powf(1.0 / 2.2), b.powf(1.0 / 2.2), a];
                draw.texture = m.texture.and_then(|t| texture_of.get(t).copied().flatten());
                draw.cutoff = m.alpha_cutoff.unwrap_or(-1.0);
                draw.material = true;
            }
            draws.push(draw);
            next = next.max(end);
        }
        if next < total {
            draws.push(plain(next, total - next));
        }
        // Every run's byte offset and count of corners fit OpenGL's 32 bits if the whole mesh's
        // do: checked once here, so `draw` converts them without wrapping.
        gl_size(total.saturating_mul(12), "the model's triangles, in bytes")?;
        Ok(GpuLooks { draws, textures, on: true })
    }

    /// Draws the triangles of `vao` (its elements the model's triangles), depth-tested, with the
    /// program in use whose uniforms are `uniforms`: run by run with their materials if `on`, else
    /// all at once in the vertices' colours. Each draw draws `instances` of them (a crowd's on the
    /// GPU, `render/crowd.rs`; else one).
    pub fn draw(
        &self,
        gl: &glow::Context,
        uniforms: &MaterialUniforms,
        vao: glow::VertexArray,
        instances: i32,
    ) {
        // SAFETY: `gl`'s context is current with the program of `uniforms` in use (the caller's);
        // `vao`'s elements are the model's triangles, and every run lies inside them (`new` clamps
        // them to the count), so each draw reads inside its element buffer; the textures are live.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.bind_vertex_array(Some(vao));
            if self.on {
                gl.active_texture(glow::TEXTURE0);
                for draw in self.draws.iter().filter(|d| d.count > 0) {
                    gl.uniform_1_i32(uniforms.use_material.as_ref(), draw.material as i32);
                    let [r, g, b, a] = draw.base_color;
                    gl.uniform_4_f32(uniforms.base_color.as_ref(), r, g, b, a);
                    gl.uniform_1_i32(uniforms.textured.as_ref(), draw.texture.is_some() as i32);
                    gl.uniform_1_f32(uniforms.alpha_cutoff.as_ref(), draw.cutoff);
                    gl.bind_texture(glow::TEXTURE_2D, draw.texture);
                    // Both fit: `new` checked the whole mesh's bytes.
                    let (Ok(offset), Ok(corners)) =
                        (i32::try_from(draw.first * 12), i32::try_from(draw.count * 3))
                    else {
                        continue;
                    };
                    gl.draw_elements_instanced(
                        glow::TRIANGLES,
                        corners,
                        glow::UNSIGNED_INT,
                        offset,
                        instances,
                    );
                }
                gl.bind_texture(glow::TEXTURE_2D, None);
            } else {
                gl.uniform_1_i32(uniforms.use_material.as_ref(), 0);
                let corners = self.draws.iter().map(|d| d.first + d.count).max().unwrap_or(0) * 3;
                // It fits: `new` checked the whole mesh's bytes, four times this.
                if let Ok(corners) = i32::try_from(corners) {
                    gl.draw_elements_instanced(glow::TRIANGLES, corners, glow::UNSIGNED_INT, 0, instances);
                }
            }
            gl.bind_vertex_array(None);
            gl.disable(glow::DEPTH_TEST);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        for &texture in &self.textures {
            // SAFETY: `gl`'s context is current (the caller's); each texture was made by `upload` and
            // is deleted once: the looks are not used after `delete`.
            unsafe { gl.delete_texture(texture) };
        }
    }
}

/// `image`, the model's image `i`, as a texture: decoded halved `halvings` times (the model's
/// budget of pixels), or more where a side is longer than the GPU's largest texture, `max_side`
/// (said: the picture is smaller than the file's); then uploaded. Its pixels are dropped once the
/// GPU has them.
fn texture(
    gl: &glow::Context,
    i: usize,
    image: &Image,
    halvings: u32,
    max_side: u32,
) -> Result<glow::Texture, String> {
    // The header's size (`material::size`), read when the model loaded: the pixels are not yet.
    let for_the_gpu = fit_side(image.width, image.height, max_side);
    let pixels = decode_smaller(image, halvings.max(for_the_gpu))?;
    if for_the_gpu > halvings {
        say(&format!(
            "note: image {i} is {} x {} pixels, larger than this GPU's largest texture ({max_side} a \
             side); drawn at {} x {}",
            image.width, image.height, pixels.width, pixels.height
        ));
    }
    upload(gl, &pixels)
}

/// A decoded image as a texture: RGBA bytes, mipmapped, repeating; an error in words if the GPU
/// refuses it (OpenGL reports that only when asked, after the upload).
fn upload(gl: &glow::Context, pixels: &Pixels) -> Result<glow::Texture, String> {
    // OpenGL reads width x height x 4 bytes from the slice, whatever its length: checked first.
    let (w, h) = rgba_texture_size(pixels.width, pixels.height, &pixels.rgba).map_err(|e| e.to_string())?;
    // SAFETY: `gl`'s context is current on this thread (`GpuLooks::new`'s caller keeps it so); the
    // texture is made here and deleted here on error; `tex_image_2d` reads `w * h * 4` bytes of
    // `pixels.rgba`, which holds exactly that many (`rgba_texture_size`), rows unpadded
    // (UNPACK_ALIGNMENT 1).
    unsafe {
        // Errors left from before are not this texture's.
        while gl.get_error() != glow::NO_ERROR {}
        let texture = gl.create_texture().map_err(|e| format!("the GPU made no texture for it ({e})"))?;
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        let data = glow::PixelUnpackData::Slice(Some(&pixels.rgba));
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            w,
            h,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            data,
        );
        gl.generate_mipmap(glow::TEXTURE_2D);
        let linear_mipmap = glow::LINEAR_MIPMAP_LINEAR as i32;
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, linear_mipmap);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, glow::REPEAT as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, glow::REPEAT as i32);
        gl.bind_texture(glow::TEXTURE_2D, None);
        match gl.get_error() {
            glow::NO_ERROR => Ok(texture),
            error => {
                gl.delete_texture(texture);
                let what = if error == glow::OUT_OF_MEMORY { ", out of memory" } else { "" };
                Err(format!("the GPU refused its {w} x {h} pixels (OpenGL error 0x{error:04X}{what})"))
            }
        }
    }
}

/// Attribute 7, the texture coordinates, from a new buffer holding the model's (or, for a model
/// without, switched off: every vertex reads (0, 0)); returns the buffer.
///
/// # Safety
/// A context is current and the vertex array to set up is bound.
pub unsafe fn texcoord_attribute(
    gl: &glow::Context,
    looks: &Looks,
    vertices: usize,
) -> Result<glow::Buffer, GlError> {
    let uv: Vec<[f32; 2]> = looks.texcoords.iter().map(|t| t.to_array()).collect();
    // SAFETY: the caller keeps a context current with the vertex array bound (this function's
    // contract); the buffer is made here and filled from `uv`, whose length glow passes;
    // attribute 7 reads it only when it holds one pair per vertex.
    unsafe {
        let buffer = gl.create_buffer().map_err(GlError::Other)?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, as_bytes(&uv), glow::STATIC_DRAW);
        if uv.len() == vertices && !uv.is_empty() {
            gl.vertex_attrib_pointer_f32(7, 2, glow::FLOAT, false, 8, 0);
            gl.enable_vertex_attrib_array(7);
        } else {
            gl.disable_vertex_attrib_array(7);
            gl.vertex_attrib_2_f32(7, 0.0, 0.0);
        }
        Ok(buffer)
    }
}
