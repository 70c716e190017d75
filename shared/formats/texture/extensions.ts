/**
 * Texture file names, apart from the decoders: code that only sorts files by name (the CLI's
 * `check` walking a folder) loads this module alone, not the decoders and their tables.
 */

/** Extensions the editor opens as a texture view and the CLI's `texture` command reads. */
export const TEXTURE_EXTENSIONS = ['.paa', '.pac', '.dds', '.edds', '.tga', '.png', '.jpg', '.jpeg', '.bmp'] as const;
/** The game texture types (the ones the editor opens on their own). */
export const GAME_TEXTURE_EXTENSIONS = ['.paa', '.pac', '.dds', '.edds', '.tga'] as const;

export function extensionOf(name: string): string {
  const base = name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

export function isTextureName(name: string): boolean {
  return (TEXTURE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}
