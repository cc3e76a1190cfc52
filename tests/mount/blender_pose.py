# Run by Blender (blender -b --python blender_pose.py -- FILE.glb NAME): imports a
# rigged moby .glb with Blender's glTF importer, prints how many armatures
# the import made, then for the armature that
# deforms the mesh object NAME prints its bone count, the mesh's vertices in
# the rest pose as the armature deforms them (world space, Blender's z-up,
# which is the game's frame), and, bone by bone, the rest and posed positions
# of the vertices that move when that bone alone is rotated 60 degrees about
# a slanted axis through its head.
import math
import sys

import bpy
from mathutils import Quaternion

path, name = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
# Blender 3.4's importer fails with its default normal import on Debian's numpy (glTF-Blender-IO #1844).
bpy.ops.import_scene.gltf(filepath=path, import_shading="FLAT")
mesh = bpy.data.objects[name]
armature = next(m.object for m in mesh.modifiers if m.type == "ARMATURE")
print("POSE_ARMATURES %d" % sum(1 for o in bpy.data.objects if o.type == "ARMATURE"))
print("POSE_BONES %d" % len(armature.pose.bones))


def world_positions():
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = mesh.evaluated_get(depsgraph)
    return [evaluated.matrix_world @ v.co for v in evaluated.data.vertices]


rest = world_positions()
print("POSE_REST %s" % " ".join("%.4f,%.4f,%.4f" % tuple(p) for p in rest))
axis = (1 / math.sqrt(14), 2 / math.sqrt(14), 3 / math.sqrt(14))
for bone in armature.pose.bones:
    bone.rotation_mode = "QUATERNION"
    bone.rotation_quaternion = Quaternion(axis, math.radians(60))
    bpy.context.view_layer.update()
    posed = world_positions()
    moved = [i for i in range(len(rest)) if (posed[i] - rest[i]).length > 1e-4]
    print("POSE_MOVED %s %s" % (bone.name, " ".join("%.4f,%.4f,%.4f" % tuple(rest[i]) for i in moved)))
    print("POSE_TURNED %s %s" % (bone.name, " ".join("%.4f,%.4f,%.4f" % tuple(posed[i]) for i in moved)))
    bone.rotation_quaternion = Quaternion()
    bpy.context.view_layer.update()
