import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@model-manager/test-harness';

/** A copy of the repository's catalog (models.yaml and runtimes/) that a test may edit. */
export function catalogCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-catalog-'));
  fs.cpSync(path.join(REPO_ROOT, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.copyFileSync(
    path.join(REPO_ROOT, 'models.yaml'),
    path.join(dir, 'models.yaml'),
  );
  return path.join(dir, 'models.yaml');
}
