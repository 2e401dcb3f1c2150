/**
 * Test utilities of the common package, exported as
 * `@model-manager/plugin-model-manager-common/testUtils` for the packages that load catalogs
 * (the node package's store tests feed the same broken files through its loader), and the test
 * catalog (`FIXTURE_CATALOG_DIR`: a models.yaml and runtimes/ of the tests' own, so adding an
 * engine to the shipped files breaks no test).
 *
 * @packageDocumentation
 */
export { badVariants, type BadVariant } from './badVariants';
export {
  FIXTURE_CATALOG_DIR,
  FIXTURE_ENGINE_B_DIR,
  dirSources,
  fixtureSources,
  modelsYaml,
} from './catalogFixtures';
export { FOURTH_ENGINE_DIR, catalogDirWith } from './combinedCatalog';
