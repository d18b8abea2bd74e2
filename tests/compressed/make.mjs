// Makes the compressed fixtures and their decoded twins (see README.md beside the fixtures).
// node make.mjs T-POSE.gltf OUTDIR   (run with @gltf-transform/cli and gltfpack installed beside it)
import { NodeIO, Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS, KHRDracoMeshCompression, EXTMeshoptCompression } from '@gltf-transform/extensions';
import { draco } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import draco3d from 'draco3dgltf';
import { execFileSync } from 'node:child_process';
import { deflateSync } from 'node:zlib';

const [source, out] = process.argv.slice(2);
await MeshoptDecoder.ready;
await MeshoptEncoder.ready;
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
  'draco3d.decoder': await draco3d.createDecoderModule(),
  'draco3d.encoder': await draco3d.createEncoderModule(),
  'meshopt.decoder': MeshoptDecoder,
  'meshopt.encoder': MeshoptEncoder,
});

// A 2 x 2 RGBA PNG, written by hand: the fixture's texture.
function png() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 255] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => {
    const b = Buffer.alloc(12 + data.length);
    b.writeUInt32BE(data.length, 0); b.write(type, 4, 'ascii'); data.copy(b, 8);
    b.writeUInt32BE(crc(b.subarray(4, 8 + data.length)), 8 + data.length);
    return b;
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(2, 0); ihdr.writeUInt32BE(2, 4); ihdr[8] = 8; ihdr[9] = 6;
  const rows = Buffer.from([0, 200, 120, 40, 255, 250, 210, 150, 255, 0, 90, 60, 30, 255, 240, 240, 240, 255]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const doc = await io.read(source);
// Its clips are kept, all three. It has no texture: it gets the PNG, and texture coordinates that
// lay the picture flat over the figure from the front (x across, y up: u and v from 0 to 1).
const buffer = doc.getRoot().listBuffers()[0];
const texture = doc.createTexture('skin').setImage(png()).setMimeType('image/png');
const material = doc.createMaterial('skin').setBaseColorTexture(texture);
for (const prim of doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives())) {
  const p = prim.getAttribute('POSITION');
  const [lo, hi] = [p.getMin([]), p.getMax([])];
  const uv = new Float32Array(p.getCount() * 2);
  for (let i = 0; i < p.getCount(); i++) {
    const v = p.getElement(i, []);
    uv[i * 2] = (v[0] - lo[0]) / (hi[0] - lo[0]);
    uv[i * 2 + 1] = 1 - (v[1] - lo[1]) / (hi[1] - lo[1]);
  }
  prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buffer));
  prim.setMaterial(material);
}
// Smooth normals, each vertex's the area-weighted sum of its triangles' (the figure has none).
for (const prim of doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives())) {
  const p = prim.getAttribute('POSITION');
  const idx = prim.getIndices().getArray();
  const sum = new Float32Array(p.getCount() * 3);
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => p.getElement(idx[t + k], []));
    const u = [0, 1, 2].map((k) => b[k] - a[k]), v = [0, 1, 2].map((k) => c[k] - a[k]);
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (const i of [idx[t], idx[t + 1], idx[t + 2]]) for (let k = 0; k < 3; k++) sum[i * 3 + k] += n[k];
  }
  for (let i = 0; i < p.getCount(); i++) {
    const l = Math.hypot(sum[i * 3], sum[i * 3 + 1], sum[i * 3 + 2]) || 1;
    for (let k = 0; k < 3; k++) sum[i * 3 + k] /= l;
  }
  prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(sum).setBuffer(doc.getRoot().listBuffers()[0]));
}
// One morph target: each vertex pushed out along its normal by 0.05 (the figure is 1.87 tall), its
// normal turned a little.
for (const mesh of doc.getRoot().listMeshes()) {
  for (const prim of mesh.listPrimitives()) {
    const n = prim.getAttribute('NORMAL');
    const p = prim.getAttribute('POSITION');
    const count = p.getCount();
    const dp = new Float32Array(count * 3), dn = new Float32Array(count * 3);
    for (let i = 0; i < count; i++) {
      const v = n.getElement(i, []);
      for (let c = 0; c < 3; c++) dp[i * 3 + c] = 0.05 * v[c];
      dn[i * 3] = 0.1 * v[1]; dn[i * 3 + 1] = -0.1 * v[0];
    }
    const buffer = doc.getRoot().listBuffers()[0];
    const target = doc.createPrimitiveTarget('bulge')
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(dp).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(dn).setBuffer(buffer));
    prim.addTarget(target);
  }
  mesh.setWeights([0.5]);
}
await io.write(`${out}/source.glb`, doc);

// Draco, as gltf-transform writes it (edgebreaker; sequential where a primitive has morph targets).
const d = await io.read(`${out}/source.glb`);
await d.transform(draco());
await io.write(`${out}/t-pose-draco.glb`, d);
// meshopt, as gltfpack -cc writes it (with its filters): quantized (KHR_mesh_quantization, KHR_texture_transform).
execFileSync('node_modules/.bin/gltfpack', ['-i', `${out}/source.glb`, '-o', `${out}/t-pose-meshopt.glb`, '-cc']);

// The twins: each compressed file as gltf-transform decodes it, written without the compression.
for (const name of ['t-pose-draco', 't-pose-meshopt']) {
  const t = await io.read(`${out}/${name}.glb`);
  for (const e of t.getRoot().listExtensionsUsed()) {
    if (e.extensionName === 'KHR_draco_mesh_compression' || e.extensionName === 'EXT_meshopt_compression') e.dispose();
  }
  await io.write(`${out}/${name}-decoded.glb`, t);
}
