/** What both P3D codecs (ODOL and MLOD) offer the editor (shared/formats/capabilities.ts). */
import type { EditorSupport, TextureSupport } from '../capabilities.ts';

/** Face groups, proxies and named selections; the preview draws one LOD, chosen by the user. */
export const P3D_EDITOR: EditorSupport = { panels: ['face-groups', 'lod-proxies', 'selections'], lodChoice: true };

/** Faces name textures and `.rvmat` materials by game path (docs/textures.md). */
export const P3D_TEXTURES: TextureSupport = { files: true, materials: 'rvmat' };
