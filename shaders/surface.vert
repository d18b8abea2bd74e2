// The lit surface, skinned on the CPU: positions and normals already moved by the frame's blend
// (crates/method/src/blend.rs, the rule of crates/method/src/normals.rs), one colour per vertex. It hands
// surface.frag what skinning.vert and skinning_dqs.vert hand it when the GPU skins: the same
// names, so one fragment shader lights both. The #version line is added by src/demo/draw/gl.rs.

uniform mat4 view_projection; // world space to clip space: the camera

layout(location = 0) in vec3 position; // skinned this frame, in the world
layout(location = 1) in vec4 color;    // the skinned mesh's colour: red, orange, or by weight
layout(location = 4) in vec3 normal;   // skinned this frame, unit length (0: flat normals)
layout(location = 7) in vec2 texcoord; // where on the texture: skinning never moves it

out vec3 skinned_position;
out vec3 skinned_normal;
out vec4 v_color;
out vec2 v_texcoord;

void main() {
    skinned_position = position;
    skinned_normal = normal;
    v_color = color;
    v_texcoord = texcoord;
    gl_Position = view_projection * vec4(position, 1.0);
}
