// A second opinion on skinned positions: three.js (npm `three`) loads a glTF file, plays the asked
// clips on its AnimationMixer and sets the asked morph weights, then prints where every vertex of
// every mesh is, in the scene's space, as JSON. three.js morphs first, then skins
// (SkinnedMesh.getVertexPosition), as the glTF spec says.
//
//     npm install --prefix target/npm three
//     NODE_PATH=target/npm/node_modules node tests/three/skinned.mjs < request.json
//
// The request (standard input):
//     { "model": "Fox.glb",
//       "actions": [ { "clip": "Walk", "weight": 0.5, "time": 0.3 },
//                    { "clip": "Wave", "weight": 1, "time": 0.2, "additive": true } ],
//       "morphs": [ { "node": 12, "target": 1, "weight": 1.0 } ] }
// `clip` is a name or an index; `additive` makes the clip relative to its own first key
// (AnimationUtils.makeClipAdditive) and plays it as an additive action; `morphs` set a node's
// mesh's morph weights after the clips were applied.
//
// The answer (standard output): { "three": VERSION, "meshes": [ { "node": N, "mesh": M,
// "primitive": P, "skinned": true|false, "positions": [[x, y, z], ...] }, ... ] }, one entry per
// glTF primitive, each vertex in the file's order. tests/common/three.rs runs it.
//
// In Node, GLTFLoader cannot decode images, so images, textures, samplers and materials are taken
// out of the file first: they do not move a vertex.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';

// NODE_PATH does not reach ES module imports: find the `three` package in it by hand.
const modules = (process.env.NODE_PATH || '').split(':').filter(Boolean).map((m) => resolve(m));
const home = modules.map((m) => join(m, 'three')).find((dir) => existsSync(join(dir, 'package.json')));
if (!home) {
    console.error('three.js: no `three` package in NODE_PATH');
    process.exit(2);
}
const THREE = await import(pathToFileURL(join(home, 'build/three.module.js')).href);
const { GLTFLoader } = await import(pathToFileURL(join(home, 'examples/jsm/loaders/GLTFLoader.js')).href);

const request = JSON.parse(readFileSync(0, 'utf8'));
const fail = (why) => {
    console.error(`three.js: ${why}`);
    process.exit(2);
};

// The file as one JSON document and its binary chunk (for .glb), without what Node cannot decode.
function stripped(path) {
    const bytes = readFileSync(path);
    let json;
    let bin = null;
    if (bytes.readUInt32LE(0) === 0x46546c67) {
        const jsonLength = bytes.readUInt32LE(12);
        json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
        const at = 20 + jsonLength;
        if (at < bytes.length) bin = bytes.subarray(at + 8, at + 8 + bytes.readUInt32LE(at));
    } else {
        json = JSON.parse(bytes.toString('utf8'));
        // Node has no ProgressEvent, which three.js's loader needs to fetch a buffer (even a data
        // URI): every buffer is read here and joined into the one binary chunk of a .glb.
        const dir = path.replace(/[^/]*$/, '');
        const parts = [];
        const starts = [];
        let length = 0;
        for (const buffer of json.buffers || []) {
            const uri = buffer.uri || '';
            const data = uri.startsWith('data:')
                ? Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')
                : readFileSync(dir + decodeURIComponent(uri));
            starts.push(length);
            const padded = data.length + ((4 - (data.length % 4)) % 4);
            parts.push(Buffer.concat([data, Buffer.alloc(padded - data.length)]));
            length += padded;
        }
        for (const view of json.bufferViews || []) {
            view.byteOffset = (view.byteOffset || 0) + starts[view.buffer];
            view.buffer = 0;
        }
        if (parts.length > 0) {
            bin = Buffer.concat(parts);
            json.buffers = [{ byteLength: bin.length }];
        }
    }
    for (const key of ['images', 'textures', 'samplers', 'materials']) delete json[key];
    for (const mesh of json.meshes || []) for (const p of mesh.primitives) delete p.material;
    if (json.extensionsUsed) json.extensionsUsed = json.extensionsUsed.filter((e) => !e.startsWith('KHR_texture'));
    if (!bin) return new TextEncoder().encode(JSON.stringify(json)).buffer;
    // Back into a .glb: header, JSON chunk (padded with spaces), BIN chunk.
    const text = Buffer.from(JSON.stringify(json), 'utf8');
    const jsonPad = (4 - (text.length % 4)) % 4;
    const binPad = (4 - (bin.length % 4)) % 4;
    const total = 12 + 8 + text.length + jsonPad + 8 + bin.length + binPad;
    const out = Buffer.alloc(total, 0);
    out.writeUInt32LE(0x46546c67, 0);
    out.writeUInt32LE(2, 4);
    out.writeUInt32LE(total, 8);
    out.writeUInt32LE(text.length + jsonPad, 12);
    out.writeUInt32LE(0x4e4f534a, 16);
    text.copy(out, 20);
    out.fill(0x20, 20 + text.length, 20 + text.length + jsonPad);
    const at = 20 + text.length + jsonPad;
    out.writeUInt32LE(bin.length + binPad, at);
    out.writeUInt32LE(0x004e4942, at + 4);
    bin.copy(out, at + 8);
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.length);
}

const gltf = await new Promise((resolve, reject) =>
    new GLTFLoader().parse(stripped(request.model), '', resolve, reject)
).catch((e) => fail(`cannot load ${request.model}: ${e}`));
const scene = gltf.scene;
const parser = gltf.parser;

const mixer = new THREE.AnimationMixer(scene);
for (const asked of request.actions || []) {
    const byIndex = typeof asked.clip === 'number';
    let clip = byIndex ? gltf.animations[asked.clip] : gltf.animations.find((c) => c.name === asked.clip);
    if (!clip) fail(`no clip ${asked.clip}`);
    let mode = THREE.NormalAnimationBlendMode;
    if (asked.additive) {
        clip = THREE.AnimationUtils.makeClipAdditive(clip.clone());
        mode = THREE.AdditiveAnimationBlendMode;
    }
    const action = mixer.clipAction(clip, scene, mode);
    action.setEffectiveWeight(asked.weight ?? 1);
    action.play();
    action.time = asked.time ?? 0;
}
mixer.update(0);

// Each glTF node's three.js object: for a mesh with one primitive, the node is that mesh itself;
// with several, a group whose children are the primitives.
const nodeOf = (object) => {
    for (let o = object; o; o = o.parent) {
        const a = parser.associations.get(o);
        if (a && a.nodes !== undefined) return a.nodes;
    }
    return null;
};
for (const asked of request.morphs || []) {
    let found = false;
    scene.traverse((o) => {
        if (o.isMesh && nodeOf(o) === asked.node && o.morphTargetInfluences) {
            o.morphTargetInfluences[asked.target] = asked.weight;
            found = true;
        }
    });
    if (!found) fail(`node ${asked.node} has no mesh with morph targets`);
}
scene.updateMatrixWorld(true);

const meshes = [];
const v = new THREE.Vector3();
scene.traverse((o) => {
    if (!o.isMesh) return;
    const a = parser.associations.get(o) || {};
    const count = o.geometry.attributes.position.count;
    const positions = new Array(count);
    for (let i = 0; i < count; i++) {
        o.getVertexPosition(i, v);
        // A skinned vertex comes out in the mesh's bind space; its world matrix takes it out.
        v.applyMatrix4(o.matrixWorld);
        positions[i] = [v.x, v.y, v.z];
    }
    meshes.push({ node: nodeOf(o), mesh: a.meshes ?? null, primitive: a.primitives ?? 0, skinned: !!o.isSkinnedMesh, positions });
});
process.stdout.write(JSON.stringify({ three: THREE.REVISION, meshes }));
