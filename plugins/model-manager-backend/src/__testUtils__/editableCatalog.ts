import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

/** A copy of the test catalog (models.yaml and runtimes/ of -common's testUtils) that a test may edit. */
export function catalogCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-catalog-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  fs.copyFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    path.join(dir, 'models.yaml'),
  );
  return path.join(dir, 'models.yaml');
}
