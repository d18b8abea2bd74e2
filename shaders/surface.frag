// Lights the skinned surface: a light at the camera, a little ambient, lit from both sides.
//
// Its colour, in the plain view (`use_material`), is its material's: the base colour factor, times
// the texture at this point's texture coordinates where it has one (src/demo/draw/looks.rs says
// how the two are matched to the screen); a point whose alpha is below the material's cutoff is
// not drawn (glTF's alpha mode MASK). In the weight view it is the vertex's colour, as the lines'.
//
// How much light a point takes is the cosine between its normal and the direction to the light
// (Lambert's law): full where the surface faces the light, none where the light grazes it. The
// light sits at the camera, so whatever faces the camera is brightest and outlines darken. Lit
// from both sides: the absolute value of that cosine, so a face seen from behind (an open mesh, a
// normal pointing away) is shaded like its front instead of going black. AMBIENT keeps the
// grazing parts from vanishing into the background.
//
// A mesh without normals of its own (`face_normals`) is lit with flat normals: each triangle's
// own, `(b - a) × (c - a)`. Here that cross product comes from the screen-space derivatives of
// the position, two directions in the triangle's plane (dFdx and dFdy: how the position changes
// from one pixel to the next), so the GPU needs nothing from the CPU for it, and it is the same
// plane `normals::face_normals` (crates/method/src/normals/shape.rs) gets from the triangle's skinned corners.

uniform vec3 eye;          // where the camera, and so the light, is, in the positions' space
uniform bool face_normals; // true: flat normals, from the triangle itself
uniform bool use_material; // the material's colour (the plain view), or the vertex's
uniform vec4 base_color;   // the material's factor, as the screen shows it
uniform bool textured;     // the material has a texture: base_color_texture
uniform sampler2D base_color_texture;
uniform float alpha_cutoff; // below it a point is not drawn; negative: opaque

in vec3 skinned_position;  // this point of the surface, in the world
in vec3 skinned_normal;    // its normal, between the corners' (shortened by the interpolation)
in vec4 v_color;
in vec2 v_texcoord;        // where on the texture this point is
out vec4 frag_color;

const float AMBIENT = 0.25;

void main() {
    vec3 normal = face_normals ? cross(dFdx(skinned_position), dFdy(skinned_position)) : skinned_normal;
    vec3 to_light = normalize(eye - skinned_position);
    float lambert = length(normal) > 0.0 ? abs(dot(normalize(normal), to_light)) : 1.0;
    vec4 color = v_color;
    if (use_material) {
        color = textured ? base_color * texture(base_color_texture, v_texcoord) : base_color;
        if (color.a < alpha_cutoff) {
            discard;
        }
        color.a = 1.0;
    }
    frag_color = vec4(color.rgb * (AMBIENT + (1.0 - AMBIENT) * lambert), color.a);
}
