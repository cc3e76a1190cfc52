# Run by Blender (blender -b --python blender_raise_obj.py -- IN.obj OUT.obj):
# imports an OBJ the mount showed (collision.obj, tfrag/terrain.obj) with
# Blender's own importer, raises every object one unit (Blender's z, the
# game's z), and exports it with the exporter's defaults, as a modder would.
import sys

import bpy

source, target = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.obj_import(filepath=source)
for o in bpy.context.scene.objects:
    if o.type == "MESH":
        o.location.z += 1
bpy.ops.wm.obj_export(filepath=target)
print("BLENDER exported", target)
