# Run by Blender (blender -b --python blender_import.py -- FILE.obj [FILE.obj ...]):
# imports each OBJ into an empty scene with Blender's own importer and prints
# what it made of it, three lines per file, in the order given: counts, objects,
# and the world-space bounds of its meshes (Blender is z-up).
import sys

import bpy

for path in sys.argv[sys.argv.index("--") + 1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if hasattr(bpy.ops.wm, "obj_import"):  # Blender 3.3 and later
        bpy.ops.wm.obj_import(filepath=path)
    else:
        bpy.ops.import_scene.obj(filepath=path)
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    materials = {m.name for o in meshes for m in o.data.materials if m}
    images = [i for i in bpy.data.images if i.size[0] > 0]
    print("BLENDER vertices=%d faces=%d materials=%d images=%d uv=%d colours=%d" % (
        sum(len(o.data.vertices) for o in meshes), sum(len(o.data.polygons) for o in meshes), len(materials), len(images),
        all(len(o.data.uv_layers) > 0 for o in meshes), all(len(o.data.color_attributes) > 0 for o in meshes)))
    print("BLENDER_OBJECTS objects=%d edges=%d" % (len(meshes), sum(len(o.data.edges) for o in meshes)))
    corners = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    print("BLENDER_BOUNDS " + " ".join("%.4f" % min(c[i] for c in corners) for i in range(3)) + " "
          + " ".join("%.4f" % max(c[i] for c in corners) for i in range(3)) if corners else "BLENDER_BOUNDS none")
