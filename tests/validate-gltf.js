// Checks a .gltf or .glb file with the Khronos glTF-Validator (the npm package gltf-validator):
// prints how many errors, warnings, infos and hints it reports, then each message, and exits 1 if
// there is any error (2 if the file could not be validated at all).
//
//     npm install --prefix target/npm gltf-validator
//     NODE_PATH=target/npm/node_modules node tests/validate-gltf.js article.gltf
//
// tests/gltf_export.rs runs it on the files `skinning --export-gltf` writes.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const file = process.argv[2];
if (!file) {
    console.error('usage: node validate-gltf.js FILE.gltf|FILE.glb');
    process.exit(2);
}
const severities = ['error', 'warning', 'info', 'hint'];
const options = { uri: path.basename(file), maxIssues: 0, writeTimestamp: false };
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), options).then(
    (report) => {
        const issues = report.issues;
        console.log(
            `${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
                `${issues.numInfos} infos, ${issues.numHints} hints (glTF-Validator ${report.validatorVersion})`
        );
        for (const m of issues.messages) {
            console.log(`  ${severities[m.severity]} ${m.code} at ${m.pointer || '(file)'}: ${m.message}`);
        }
        process.exit(issues.numErrors > 0 ? 1 : 0);
    },
    (failure) => {
        console.error(`${file}: the validator could not read it: ${failure}`);
        process.exit(2);
    }
);
