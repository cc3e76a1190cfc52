# Run by Blender (blender -b --python blender_level_save.py -- IN.glb OUT.glb MODE):
# imports level.glb with Blender's glTF importer (the README's options), does
# what a modder does in the viewport, exports with File > Export > glTF 2.0's
# defaults over OUT, and prints one JSON line, "SAVED {...}": what it did and
# each touched object's world matrix as Blender reports it (z-up: the game's
# axes), or the error the export met.
#   edit        move a moby by (5, 0, 2), turn a tie 90 degrees about the up
#               axis, Shift+D a shrub and move the copy, X a second moby, lift
#               cuboid 0 by 1
#   unchanged   import and export, nothing else
#   z_up        the edit's move only, exported with "+Y Up" off
#   selected    the edit's move only, exported with "Selected Objects" on (the moby alone)
#   selected_allow  as selected, with the scene's custom property gcfs_allow_delete
#               exported ("Custom Properties" on)
import json
import math
import sys

import bpy
from mathutils import Matrix, Vector

source, target, mode = sys.argv[sys.argv.index("--") + 1:][:3]
bpy.ops.wm.read_factory_settings(use_empty=True)
# Flat shading: Debian 12's Blender 3.4 fails on numpy 1.24 in its default normals path.
bpy.ops.import_scene.gltf(filepath=source, import_shading="FLAT")

def first(prefix, skip=0):
    names = sorted(o.name for o in bpy.context.scene.objects if o.name.startswith(prefix))
    return bpy.data.objects[names[skip]]

def world(o):
    return [list(row) for row in o.matrix_world]

report = {"mode": mode}
if mode != "unchanged":
    moby = first("moby_")
    before = moby.matrix_world.copy()
    moby.matrix_world = Matrix.Translation(Vector((5, 0, 2))) @ before
    report["moved"] = {"name": moby.name, "before": [list(r) for r in before], "after": world(moby)}
if mode == "edit":
    tie = first("tie_")
    before = tie.matrix_world.copy()
    at = before.translation.copy()
    tie.matrix_world = Matrix.Translation(at) @ Matrix.Rotation(math.radians(90), 4, "Z") @ Matrix.Translation(-at) @ before
    report["turned"] = {"name": tie.name, "before": [list(r) for r in before], "after": world(tie)}
    shrub = first("shrub_")
    bpy.ops.object.select_all(action="DESELECT")
    shrub.select_set(True)
    bpy.context.view_layer.objects.active = shrub
    bpy.ops.object.duplicate()  # Shift+D
    copy = bpy.context.view_layer.objects.active
    copy.matrix_world = Matrix.Translation(Vector((3, 1, 0))) @ copy.matrix_world
    report["copied"] = {"name": shrub.name, "copy": copy.name, "after": world(copy)}
    volume = bpy.data.objects["cuboid_0"]  # drawn in world space: its node carries the move alone
    volume.matrix_world = Matrix.Translation(Vector((0, 0, 1))) @ volume.matrix_world
    report["volume"] = volume.name
    gone = first("moby_", 1)
    report["deleted"] = gone.name
    bpy.ops.object.select_all(action="DESELECT")
    gone.select_set(True)
    bpy.ops.object.delete()  # X
    bpy.context.view_layer.update()

options = {"filepath": target}
if mode == "z_up":
    options["export_yup"] = False
if mode.startswith("selected"):
    bpy.ops.object.select_all(action="DESELECT")
    bpy.data.objects[report["moved"]["name"]].select_set(True)
    options["use_selection"] = True
if mode == "selected_allow":
    bpy.context.scene["gcfs_allow_delete"] = 1
    options["export_extras"] = True
try:
    bpy.ops.export_scene.gltf(**options)
    report["exported"] = True
except Exception as e:  # the mount refused the save: the close failed
    report["exported"] = False
    report["error"] = str(e)[-400:]
print("SAVED " + json.dumps(report))
