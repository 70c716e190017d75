/**
 * Registers every codec of every family in the catalog (in catalog order, so detection's ties
 * break the same way every run). Import this module once to make all formats available.
 */
import { FORMAT_CATALOG } from './catalog.ts';

export * from './registry.ts';

for (const entry of FORMAT_CATALOG) await entry.load();
