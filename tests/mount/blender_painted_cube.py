# Run by Blender (blender -b --python blender_painted_cube.py -- OUT.glb OUT.obj):
# a cube as a modder makes one: Blender's own cube (its UVs as the primitive
# gives them), 1.5 units a side, painted with a new 16x16 picture of 48
# colours in a material of its own, its faces cut into triangles (so the
# .glb and the OBJ hold the same triangles), exported with the glTF
# exporter's defaults (a .glb, the picture packed in) and as an OBJ for the
# test to compare with.
import sys

import bmesh
import bpy

glb, obj = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.mesh.primitive_cube_add(size=1.5, location=(0.25, 0.75, 0.1))
cube = bpy.context.active_object
mesh = cube.data
b = bmesh.new()
b.from_mesh(mesh)
bmesh.ops.triangulate(b, faces=b.faces[:])
b.to_mesh(mesh)
b.free()
picture = bpy.data.images.new("painted", 16, 16)
pixels = []
for y in range(16):
    for x in range(16):
        c = (x // 2 + 8 * (y // 6)) % 48
        pixels += [c / 47.0, 1 - c / 47.0, (c % 5) / 4.0, 1.0]
picture.pixels = pixels
picture.file_format = "PNG"
picture.pack()
material = bpy.data.materials.new("painted")
material.use_nodes = True
texture = material.node_tree.nodes.new("ShaderNodeTexImage")
texture.image = picture
material.node_tree.links.new(texture.outputs["Color"], material.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
mesh.materials.append(material)
bpy.ops.export_scene.gltf(filepath=glb)
bpy.ops.wm.obj_export(filepath=obj, export_materials=False)
print("BLENDER exported", glb, obj)
