"""A glTF binary (glTF 2.0 spec, "GLB File Format Specification") written by
hand for the import tests: one node of one mesh whose primitives share the
positions (y up) and UVs, each primitive with its own material carrying a PNG
packed in the file, as Blender's .glb export packs them."""
import json
import struct


def packed_glb(positions, uvs, primitives, images, name="model"):
    """positions: [(x, y, z)], uvs: [(u, v)]; primitives: one index list of triangles per material;
    images: one PNG's bytes per material."""
    blob, views = b"", []

    def view(data):
        nonlocal blob
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        blob += data + b"\0" * (-len(data) % 4)
        return len(views) - 1
    flat = [c for p in positions for c in p]
    accessors = [{"bufferView": view(struct.pack("<%df" % len(flat), *flat)), "componentType": 5126, "count": len(positions), "type": "VEC3",
                  "min": [min(p[k] for p in positions) for k in range(3)], "max": [max(p[k] for p in positions) for k in range(3)]}]
    flat = [c for uv in uvs for c in uv]
    accessors.append({"bufferView": view(struct.pack("<%df" % len(flat), *flat)), "componentType": 5126, "count": len(uvs), "type": "VEC2"})
    for indices in primitives:
        accessors.append({"bufferView": view(struct.pack("<%dI" % len(indices), *indices)), "componentType": 5125, "count": len(indices),
                          "type": "SCALAR"})
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": name, "mesh": 0}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2 + k, "material": k}
                                      for k in range(len(primitives))]}],
           "materials": [{"name": "picture_%d" % k, "pbrMetallicRoughness": {"baseColorTexture": {"index": k}}} for k in range(len(images))],
           "textures": [{"source": k} for k in range(len(images))],
           "images": [{"bufferView": view(png), "mimeType": "image/png"} for png in images]}
    doc["buffers"] = [{"byteLength": len(blob)}]
    doc["bufferViews"], doc["accessors"] = views, accessors
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(blob), 0x004E4942) + blob
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body
