// Draws the layers whose positions the CPU computed: the bind mesh, the CPU's skinned mesh as
// lines, the normals, the bones, the inspector's marks and, with a camera in window pixels, the
// words. Positions already in the world, one colour per vertex. The lit surface has surface.vert;
// the GPU skins with skinning.vert or skinning_dqs.vert. The #version line is added by the
// program, which knows whether it runs on OpenGL 3.3 or OpenGL ES 3.0.

uniform mat4 view_projection; // world space to clip space: the camera
uniform float point_size;     // in pixels, scaled for high-DPI screens

layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;

out vec4 v_color;

void main() {
    gl_Position = view_projection * vec4(position, 1.0);
    gl_PointSize = point_size;
    v_color = color;
}
