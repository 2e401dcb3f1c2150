import {
  buildCatalog,
  type Catalog,
} from '@model-manager/plugin-model-manager-common';
import { readCatalogSources } from './readCatalogSources';
import type { CatalogLocation } from './types';

/** Reads and builds a catalog. @throws CatalogError with file:line:col for every problem. */
export async function loadCatalog(location: CatalogLocation): Promise<Catalog> {
  return buildCatalog(await readCatalogSources(location));
}
