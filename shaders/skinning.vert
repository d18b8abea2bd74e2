// Linear blend skinning in the vertex shader: `Linear`'s blend (crates/method/src/blend.rs), moved
// to the GPU.
//
//     skinned_position = Σ weights[i] * palette[joints[i]] * bind_position
//
// The CPU loops over every vertex; the GPU runs main() once per vertex, many at a time, so only the
// loop over one vertex's influences is left: its four slots, or eight for a model that has vertices
// with more (two attribute sets, src/demo/draw/gpu_influences.rs). What a vertex brings never changes (its bind
// position, its joints and weights), so the program uploads it once, as vertex attributes. What
// changes every frame is the palette, one `world[joint.bone] * joint.offset` per skin joint: the CPU
// still walks the bone tree and multiplies it, then uploads it into a uniform buffer that this
// uniform block reads (src/demo/draw/gpu_palette.rs says why a block, and not a plain uniform array;
// a crowd's other characters read theirs from a texture, below).
//
// The normal moves by the inverse transpose of the blended matrix `Σ weights[i] * palette[joints[i]]`
// (crates/method/src/normals.rs: skin_normal says why, and computes it the same way): the cofactor matrix, whose
// columns are the cross products of the blended matrix's columns, turned round where the blend
// mirrors space, then normalised.
//
// MAX_JOINTS, MATRICES_PER_ROW (of the crowd's texture) and INFLUENCES (4 or 8) are #defined by the
// program (src/demo/draw/skin_program.rs, from MAX_GPU_JOINTS and MATRICES_PER_ROW in
// src/demo/model/gpu_fit.rs and the model's influences), after the #version line that
// src/demo/draw/gl.rs adds. The fragment shader
// is lines.frag for the lines and points, surface.frag for the lit surface.

layout(std140) uniform Palette {
    mat4 palette[MAX_JOINTS]; // world[joint.bone] * joint.offset of every skin joint, this frame
};
// A crowd (src/demo/draw/render/crowd.rs) is one instanced draw per mesh: the palettes of every character
// but the first, each already moved to its character's place, are in one float texture
// (src/demo/draw/crowd_palettes.rs), `crowd_joints` matrices a character, four texels (columns) a
// matrix, counted row after row; instance k reads character k's. Where `crowd` is false (a single
// character, or the crowd's first) the palette is the block's.
uniform bool crowd;
uniform int crowd_joints;
uniform highp sampler2D crowd_palettes;
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

// The matrix of influence i: from the block, or from this instance's palette in the crowd's texture.
mat4 skin_matrix(int i) {
    if (!crowd) {
        return palette[joint(i)];
    }
    uint m = uint(gl_InstanceID * crowd_joints) + joint(i);
    ivec2 at = ivec2(m % MATRICES_PER_ROW * 4u, m / MATRICES_PER_ROW);
    return mat4(texelFetch(crowd_palettes, at, 0), texelFetch(crowd_palettes, at + ivec2(1, 0), 0),
                texelFetch(crowd_palettes, at + ivec2(2, 0), 0), texelFetch(crowd_palettes, at + ivec2(3, 0), 0));
}

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
out vec3 skinned_normal;   // the normal, moved the same way; read back too
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

    // Each influence's matrix, read once: a crowd's costs four texture reads.
    mat4 skin[INFLUENCES];
    for (int i = 0; i < INFLUENCES; i++) {
        skin[i] = skin_matrix(i);
    }

    // Where each joint alone would put the vertex, weighted; unused slots add nothing.
    vec3 sum = vec3(0.0);
    for (int i = 0; i < INFLUENCES; i++) {
        sum += weight(i) * (skin[i] * vec4(bind_position, 1.0)).xyz;
    }
    skinned_position = sum;

    // The blended matrix's 3x3 part, then cofactor(m) * bind_normal, with det(m)'s sign.
    mat3 m = mat3(0.0);
    for (int i = 0; i < INFLUENCES; i++) {
        m += weight(i) * mat3(skin[i]);
    }
    vec3 yz = cross(m[1], m[2]);
    vec3 moved = yz * bind_normal.x + cross(m[2], m[0]) * bind_normal.y + cross(m[0], m[1]) * bind_normal.z;
    moved = dot(m[0], yz) < 0.0 ? -moved : moved;
    // Where the blend squashes the surface flat there is no normal to find: keep the bind normal.
    skinned_normal = length(moved) > 0.0 ? normalize(moved) : bind_normal;

    // From here on, exactly what lines.vert does with a position the CPU blended.
    gl_Position = view_projection * vec4(skinned_position, 1.0);
    gl_PointSize = point_size;
    v_color = color;
    v_texcoord = texcoord;
}
