// Dual-quaternion skinning in the vertex shader: `DualQuats`' blend (crates/method/src/dual_quat.rs), moved
// to the GPU. Its opening comment gives the method; the three steps below are the same as there.
//
// The vertex attributes are skinning.vert's. The palette is the same joints' motions, each as a
// unit dual quaternion, two vec4s (real: the rotation; dual: half the translation times it): half
// the data of a mat4. The CPU converts the palette once per joint per frame (compute_dq_palette)
// and uploads it into the uniform buffer this block reads; the one scale every joint shares goes up
// beside it, as the uniform `dq_scale`.
//
// The normal turns by the blended rotation alone (`DualQuats`' `normal`).
//
// MAX_JOINTS and INFLUENCES (4 or 8) are #defined by the program (src/demo/draw/skin_program.rs,
// from MAX_GPU_JOINTS in src/demo/model/gpu_fit.rs and the model's influences), after the #version line that
// src/demo/draw/gl.rs adds. The fragment shader
// is lines.frag for the lines and points, surface.frag for the lit surface.

struct DualQuat {
    vec4 real; // the rotation, a unit quaternion (x, y, z, w)
    vec4 dual; // ½ (translation, 0) * real
};
layout(std140) uniform DualQuatPalette {
    DualQuat dq_palette[MAX_JOINTS]; // every skin joint's motion, this frame
};
uniform float dq_scale;       // the scale every joint shares, factored out (1 for the article)
uniform mat4 view_projection; // world space to clip space: the camera
uniform float point_size;     // in pixels, scaled for high-DPI screens

layout(location = 0) in vec3 modelled_position; // where the vertex was modelled, in mesh space
layout(location = 1) in vec4 color;         // as in lines.vert
layout(location = 2) in uvec4 joints;       // the four influence slots (VertexInfluences::joints) ...
layout(location = 3) in vec4 weights;       // ... and their weights; unused slots weigh 0
layout(location = 4) in vec3 modelled_normal;   // the normal where it was modelled (0: flat normals)
layout(location = 5) in uvec4 joints_1;     // a fifth to eighth influence (the skin's extras) ...
layout(location = 6) in vec4 weights_1;     // ... and their weights; read only if INFLUENCES is 8
layout(location = 7) in vec2 texcoord;      // where on the texture, passed on as it is

// Influence i: the four slots, then the second set.
uint joint(int i) { return i < 4 ? joints[i] : joints_1[i - 4]; }
float weight(int i) { return i < 4 ? weights[i] : weights_1[i - 4]; }

// Morph targets (crates/method/src/morph.rs), step 4: before the palette, the vertex takes this frame's shape,
// modelled + Σ weight[k] * displacement[k], and the skin then moves that shape. The displacements
// went up once, into a texture (src/demo/draw/gpu_morph.rs): a vertex's `morph.z` targets' position
// displacements from texel `morph.x` on, then, if `morph.w` is 1, their normal displacements. Its
// mesh's weights are `morph_weights[morph.y]` and on, uploaded every frame. A vertex without
// targets has morph.z = 0. MAX_MORPH_WEIGHTS is #defined by the program, as MAX_JOINTS is.
uniform float morph_weights[MAX_MORPH_WEIGHTS];
uniform highp sampler2D morph_displacements;
layout(location = 8) in uvec4 morph;

// Texel `i` of the displacements, counted row after row.
vec3 displacement(uint i) {
    int width = textureSize(morph_displacements, 0).x;
    return texelFetch(morph_displacements, ivec2(int(i) % width, int(i) / width), 0).xyz;
}

out vec3 skinned_position; // the blend's result; the tests read it back (transform feedback)
out vec3 skinned_normal;   // the normal, turned by the blended rotation; read back too
out vec4 v_color;
out vec2 v_texcoord;       // for surface.frag: skinning never moves it

void main() {
    // Step 4, the morph: the bind pose the skin moves is this frame's shape of the modelled one.
    vec3 bind_position = modelled_position;
    vec3 bind_normal = modelled_normal;
    for (uint k = 0u; k < morph.z; k++) {
        float amount = morph_weights[morph.y + k];
        bind_position += amount * displacement(morph.x + k);
        if (morph.w != 0u) {
            bind_normal += amount * displacement(morph.x + morph.z + k);
        }
    }
    bind_normal = length(bind_normal) > 0.0 ? normalize(bind_normal) : bind_normal;

    // 1. The weighted sum, every term on the side of the first influence's rotation: q and -q are
    //    the same rotation, but they would cancel in the sum.
    vec4 first = dq_palette[joints[0]].real;
    vec4 real = vec4(0.0);
    vec4 dual = vec4(0.0);
    for (int i = 0; i < INFLUENCES; i++) {
        DualQuat dq = dq_palette[joint(i)];
        float w = dot(dq.real, first) < 0.0 ? -weight(i) : weight(i);
        real += dq.real * w;
        dual += dq.dual * w;
    }
    // 2. Normalise by the real part's length.
    float len = length(real);
    real /= len;
    dual /= len;
    // 3. Apply it to the (scaled) bind position: rotate by real, then add t = 2 dual real*.
    vec3 p = dq_scale * bind_position;
    vec3 r = real.xyz;
    vec3 rotated = p + 2.0 * cross(r, cross(r, p) + real.w * p);
    vec3 translation = 2.0 * (real.w * dual.xyz - dual.w * r + cross(r, dual.xyz));
    skinned_position = rotated + translation;
    vec3 n = bind_normal;
    skinned_normal = n + 2.0 * cross(r, cross(r, n) + real.w * n);

    // From here on, exactly what lines.vert does with a position the CPU blended.
    gl_Position = view_projection * vec4(skinned_position, 1.0);
    gl_PointSize = point_size;
    v_color = color;
    v_texcoord = texcoord;
}
