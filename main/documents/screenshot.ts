/**
 * Where each format keeps a preview image. Only LODka has such a block (IMG1); the command that
 * sets or creates it goes through the normal edit path, so taking a screenshot is undoable like
 * any other edit.
 */
import type { FormatId } from '../../shared/formats/registry.ts';
import type { EditCommand } from '../../shared/model/commands.ts';

/** Builds the edit that stores `png` as the document's screenshot, or undefined when the format has none. */
export type ScreenshotAdapter = (tree: object, png: Uint8Array, name?: string) => EditCommand | undefined;

const adapters = new Map<FormatId, ScreenshotAdapter>();

/** Registers how a format stores screenshots (tests register their own for fake formats). */
export function registerScreenshotAdapter(format: FormatId, adapter: ScreenshotAdapter): void {
  adapters.set(format, adapter);
}

export function screenshotCommand(format: FormatId, tree: object, png: Uint8Array, name?: string): EditCommand | undefined {
  return adapters.get(format)?.(tree, png, name);
}
