# Run by Blender (blender -b --python blender_scene.py -- FILE.glb): imports
# the scene with Blender's own glTF importer and prints one JSON line, "SCENE
# {...}", saying what it made: every object's name, type, parent, face and
# edge counts, custom properties (glTF extras) and world-space bounds (Blender
# is z-up), and the images it loaded.
import json
import sys

import bpy

path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
# Flat shading: level.glb carries no normals, and Debian 12's Blender 3.4 fails on
# numpy 1.24 in its default "guess from normals" path (np.bool is gone).
bpy.ops.import_scene.gltf(filepath=path, import_shading="FLAT")
objects = []
for o in bpy.context.scene.objects:
    entry = {"name": o.name, "type": o.type, "parent": o.parent.name if o.parent else None,
             "props": {k: (o[k] if isinstance(o[k], (int, float, str)) else str(o[k])) for k in o.keys() if not k.startswith("_")}}
    if o.type == "MESH":
        entry["faces"] = len(o.data.polygons)
        entry["edges"] = len(o.data.edges)
        entry["mesh"] = o.data.name
        corners = [o.matrix_world @ v.co for v in o.data.vertices]
        entry["bounds"] = [min(c[i] for c in corners) for i in range(3)] + [max(c[i] for c in corners) for i in range(3)]
    entry["world_z"] = o.matrix_world.translation.z
    objects.append(entry)
images = [{"name": i.name, "width": i.size[0], "height": i.size[1]} for i in bpy.data.images]
print("SCENE " + json.dumps({"objects": objects, "images": images}))
