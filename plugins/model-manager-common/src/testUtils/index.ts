/**
 * Test utilities of the common package, exported as
 * `@model-manager/plugin-model-manager-common/testUtils` for the packages that load catalogs
 * (the node package's store tests feed the same broken files through its loader).
 *
 * @packageDocumentation
 */
export { badVariants, type BadVariant } from './badVariants';
