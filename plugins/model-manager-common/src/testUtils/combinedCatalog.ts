import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { REPO_ROOT } from './catalogFixtures';

/**
 * A fourth engine as data only (Hugging Face TGI): a models.yaml and a runtimes/ folder with a
 * plumbing key (`port`), a routing value (`httproute`) and categories (`chat`, `code`) no other
 * engine has. See its README.md.
 */
export const FOURTH_ENGINE_DIR = path.join(__dirname, 'fourth-engine');

/**
 * A catalog folder (a models.yaml and runtimes/) in a new temporary directory: `base` with the
 * engines of each of `additions` added (their runtime folders, and their models: and runtimes:
 * entries). Folders are absolute or relative to the repository root. The caller removes it.
 *
 * @throws when an addition has a runtime folder or a models.yaml entry the catalog already has
 *   (an addition adds, it never replaces).
 */
export function catalogDirWith(base: string, ...additions: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-catalog-'));
  const from = (folder: string) => path.resolve(REPO_ROOT, folder);
  fs.cpSync(path.join(from(base), 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  const doc = parseDocument(
    fs.readFileSync(path.join(from(base), 'models.yaml'), 'utf8'),
  );
  for (const addition of additions) {
    const runtimes = path.join(from(addition), 'runtimes');
    for (const folder of fs.readdirSync(runtimes)) {
      const target = path.join(dir, 'runtimes', folder);
      // Shared folders (templates/) may hold the same files: those are kept as they are.
      if (folder !== 'templates' && fs.existsSync(target))
        throw new Error(`${addition}: runtimes/${folder} is already there`);
      fs.cpSync(path.join(runtimes, folder), target, {
        recursive: true,
        force: false,
      });
    }
    const added = parseDocument(
      fs.readFileSync(path.join(from(addition), 'models.yaml'), 'utf8'),
    );
    for (const section of ['models', 'runtimes']) {
      const entries = added.get(section);
      if (!isMap(entries)) throw new Error(`${addition}: no ${section}: map`);
      for (const pair of entries.items) {
        if (doc.hasIn([section, pair.key]))
          throw new Error(
            `${addition}: ${section}.${pair.key} is already there`,
          );
        doc.setIn([section, pair.key], pair.value);
      }
    }
  }
  fs.writeFileSync(path.join(dir, 'models.yaml'), doc.toString());
  return dir;
}
