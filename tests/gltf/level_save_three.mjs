// A level.glb round trip through three.js: GLTFLoader reads it, the node NAME
// moves by (DX, DY, DZ) in the scene's world (glTF's y-up), and
// GLTFExporter writes the scene as a binary glTF to OUT (a modder's
// three.js editor saving over the mounted file). Prints as JSON the node's
// world position before and after.
// Usage: node level_save_three.mjs IN.glb OUT.glb NAME DX DY DZ
import fs from "node:fs";

// The loader and exporter reach for a browser's globals; Node has Blob but
// no FileReader, which the exporter reads its binary output back with.
globalThis.self = globalThis;
globalThis.FileReader = class {
    readAsArrayBuffer(blob) {
        blob.arrayBuffer().then((buffer) => { this.result = buffer; this.onloadend?.(); });
    }
    readAsDataURL(blob) {
        blob.arrayBuffer().then((buffer) => {
            this.result = "data:application/octet-stream;base64," + Buffer.from(buffer).toString("base64");
            this.onloadend?.();
        });
    }
};
const THREE = await import("three");
const { GLTFLoader } = await import("three/examples/jsm/loaders/GLTFLoader.js");
const { GLTFExporter } = await import("three/examples/jsm/exporters/GLTFExporter.js");

const [input, output, name, dx, dy, dz] = process.argv.slice(2);
const bytes = fs.readFileSync(input);
const quiet = console.warn;
console.warn = console.error = () => {};  // "Couldn't load texture": no image decoder in Node
const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), "");
console.warn = console.error = quiet;

const node = gltf.scene.getObjectByName(name);
if (!node) {
    process.stderr.write(`no node ${name} in ${input}\n`);
    process.exit(2);
}
gltf.scene.updateMatrixWorld(true);
const before = node.getWorldPosition(new THREE.Vector3());
// A world offset as the node's parent sees it.
const target = before.clone().add(new THREE.Vector3(Number(dx), Number(dy), Number(dz)));
node.position.copy(node.parent.worldToLocal(target.clone()));
gltf.scene.updateMatrixWorld(true);
const after = node.getWorldPosition(new THREE.Vector3());
// Textures never loaded here (no image decoder): the exporter writes the materials without them.
gltf.scene.traverse((o) => {
    for (const m of [o.material].flat())
        if (m && m.map) m.map = null;
});
const glb = await new GLTFExporter().parseAsync(gltf.scene, { binary: true });
fs.writeFileSync(output, Buffer.from(glb));
console.log(JSON.stringify({ before: before.toArray(), after: after.toArray() }));
