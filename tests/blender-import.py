# Imports glTF files with Blender's own importer (Blender as a Python module: `pip install bpy`)
# and prints, for each, one line: what Blender made of it. tests/blender.rs runs it on the files
# `skinning --export-gltf` writes.
#
#     python3.11 tests/blender-import.py fox.glb robot.gltf
import sys

import bpy

for path in sys.argv[1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=path)
    meshes = [o for o in bpy.data.objects if o.type == 'MESH']
    armatures = [o for o in bpy.data.objects if o.type == 'ARMATURE']
    skinned = sum(1 for o in meshes if any(m.type == 'ARMATURE' for m in o.modifiers))
    bones = sum(len(a.data.bones) for a in armatures)
    print(
        f"{path}: {sorted(result)[0]}, {skinned} skinned meshes, {len(armatures)} armatures, {bones} bones, "
        f"{len(bpy.data.actions)} actions, {len(bpy.data.materials)} materials, {len(bpy.data.images)} images"
    )
