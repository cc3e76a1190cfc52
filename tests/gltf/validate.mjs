// The Khronos glTF validator over each file given: one line per file with
// its error, warning and info counts, then every error and warning. Exits 1
// when any file has an error or a warning. A relative image URI (a moby
// class's .glb names ../textures/*.png) is read beside the file, and checked too.
//   node validate.mjs FILE.glb [FILE.glb ...]
import fs from 'fs';
import path from 'path';
import validator from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
    const externalResourceFunction = (uri) => Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri)))));
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 0, externalResourceFunction});
    const {numErrors, numWarnings, numInfos} = report.issues;
    console.log(`${file}: errors=${numErrors} warnings=${numWarnings} infos=${numInfos}`);
    for (const m of report.issues.messages)
        if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} at ${m.pointer}: ${m.message}`);
    failed ||= numErrors > 0 || numWarnings > 0;
}
process.exit(failed ? 1 : 0);
