// Draws every layer (bind mesh, skinned mesh, bones): positions already in the world, one colour
// per vertex. The #version line is added by the program, which knows whether it runs on OpenGL 3.3
// or OpenGL ES 3.0.

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
