/*
 * The files of a runtimes folder (`runtimes/<folder>/<file>`), keyed by their path under it, for
 * catalogSourcesFromFiles of the common package: the benchmarks read every engine the folder holds,
 * as the node loader does, so adding an engine to runtimes/ does not break them.
 */
const fs = require('node:fs');
const path = require('node:path');

function runtimesFiles(root) {
  const dir = path.join(root, 'runtimes');
  const files = {};
  for (const folder of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of fs.readdirSync(path.join(dir, folder.name))) {
      const rel = `${folder.name}/${file}`;
      if (fs.statSync(path.join(dir, rel)).isDirectory()) continue;
      files[rel] = {
        file: `runtimes/${rel}`,
        text: fs.readFileSync(path.join(dir, rel), 'utf8'),
      };
    }
  }
  return files;
}

module.exports = { runtimesFiles };
