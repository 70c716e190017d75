/**
 * Where a LODka file keeps its preview picture: an IMG1 chunk. The command that sets or creates
 * it goes through the normal edit path, so taking a screenshot is undoable like any other edit.
 */
import type { EditCommand } from '../../model/commands.ts';
import type { NodePath } from '../../model/path.ts';
import type { LodDocument } from './schema.ts';

interface LodChunkLike {
  id: string;
  children?: LodChunkLike[];
}

/** Depth-first search for the first chunk with `id`, returning its path. */
function findChunk(chunks: LodChunkLike[], id: string, at: NodePath): NodePath | undefined {
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!;
    if (c.id === id) return [...at, i];
    if (Array.isArray(c.children)) {
      const hit = findChunk(c.children, id, [...at, i, 'children']);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** `320 × 240` from a PNG's header, or '' when the bytes are no PNG. */
function pngSize(png: Uint8Array): string {
  if (png.length < 24 || png[0] !== 0x89 || png[1] !== 0x50 || png[2] !== 0x4e || png[3] !== 0x47) return '';
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return `${dv.getUint32(16)} × ${dv.getUint32(20)}`;
}

/**
 * LODka: replace the data (and name, when given) of the first IMG1 chunk, or append a new IMG1
 * to the LOD1 container (the top level when there is none). Size and count are recomputed by the
 * encoder because the edit marks the chunk dirty.
 */
export function lodScreenshot(tree: LodDocument, png: Uint8Array, name?: string): EditCommand | undefined {
  const chunks = (tree as { chunks?: LodChunkLike[] }).chunks;
  if (!Array.isArray(chunks)) return undefined;
  const existing = findChunk(chunks, 'IMG1', ['chunks']);
  if (existing) {
    const commands: EditCommand[] = [{ op: 'set', path: [...existing, 'screenshotData'], value: png }];
    if (name) commands.push({ op: 'set', path: [...existing, 'screenshotName'], value: name });
    return { op: 'batch', commands, label: `Replace the screenshot (IMG1)${pngSize(png) ? ` with a ${pngSize(png)} view` : ''}` };
  }
  const lodIndex = chunks.findIndex((c) => c.id === 'LOD1' && Array.isArray(c.children));
  const listPath: NodePath = lodIndex >= 0 ? ['chunks', lodIndex, 'children'] : ['chunks'];
  const list = lodIndex >= 0 ? chunks[lodIndex]!.children! : chunks;
  const chunk = { id: 'IMG1', size: 0, count: 1, screenshotType: 0, screenshotName: name ?? 'screenshot.png', screenshotData: png };
  return { op: 'insert', path: listPath, index: list.length, value: chunk, label: `Store a ${pngSize(png) ? `${pngSize(png)} ` : ''}screenshot in a new IMG1` };
}
