// Loads a rigged .glb with three.js's own GLTFLoader and skins the mesh of
// its node NAME on the CPU as three.js draws it (SkinnedMesh.getVertexPosition): prints as
// JSON the vertices in world space (glTF's y-up) at rest, then, bone by bone,
// where they go when that bone alone turns 60 degrees about a slanted axis.
// Usage: node pose_three.mjs FILE.glb NAME
import fs from "node:fs";

// The loader reaches for a browser's globals; images it cannot decode here
// are left out, which the positions do not need.
globalThis.self = globalThis;
const THREE = await import("three");
const { GLTFLoader } = await import("three/examples/jsm/loaders/GLTFLoader.js");

const [path, name] = process.argv.slice(2);
const bytes = fs.readFileSync(path);
const quiet = console.warn;
console.warn = console.error = () => {};  // "Couldn't load texture": no image decoder in Node
const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), "");
console.warn = console.error = quiet;

// The glTF node NAME: one skinned mesh per primitive (three.js splits a
// mesh of several materials), all on one skeleton.
const meshes = [];
gltf.scene.getObjectByName(name)?.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
if (meshes.length === 0) {
    process.stderr.write(`no skinned mesh under ${name} in ${path}\n`);
    process.exit(2);
}

function positions() {
    gltf.scene.updateMatrixWorld(true);
    const out = [];
    for (const mesh of meshes)
        for (let i = 0; i < mesh.geometry.attributes.position.count; ++i) {
            const v = mesh.getVertexPosition(i, new THREE.Vector3()).applyMatrix4(mesh.matrixWorld);
            out.push([v.x, v.y, v.z]);
        }
    return out;
}

const rest = positions(), posed = [];
const turn = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 2, 3).normalize(), Math.PI / 3);
for (const bone of meshes[0].skeleton.bones) {
    const kept = bone.quaternion.clone();
    bone.quaternion.multiply(turn);
    posed.push(positions());
    bone.quaternion.copy(kept);
}
process.stdout.write(JSON.stringify({ rest, posed, bones: meshes[0].skeleton.bones.map((b) => b.name) }) + "\n");
