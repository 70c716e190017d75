/**
 * Arma 3 PhysX data after the last LOD (v60 and later). Worked out from the real files, since the
 * wiki's "A3 Physx type60" does not match them: two groups, each a list of cooked convex meshes
 * ("NXS" streams, size-prefixed) followed by a list of meshes carrying one i32 each, with a u32
 * between the two groups. Every list starts with the same 32-bit signature. An empty model stores
 * 36 bytes: four empty lists and the separator.
 */
import { BinaryReader } from '../../../binary/reader.ts';
import type { BinaryWriter } from '../../../binary/writer.ts';

export interface PhysxList {
  signature: number;
  /** Cooked PhysX mesh streams, kept as stored. */
  meshes: Uint8Array[];
  /** Lists of the second kind carry one i32 per mesh. */
  tags?: Int32Array;
}

export interface PhysxData {
  lists: [PhysxList, PhysxList, PhysxList, PhysxList];
  /** The u32 between the two groups (0 in every file seen). */
  separator: number;
}

function readList(r: BinaryReader, tagged: boolean): PhysxList {
  const signature = r.u32();
  const n = r.i32Count(4, 'physx meshes');
  const meshes: Uint8Array[] = [];
  const tags = tagged ? new Int32Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const size = r.u32();
    meshes.push(r.bytesCopy(size, 'physx mesh'));
    if (tags) tags[i] = r.i32();
  }
  return tags ? { signature, meshes, tags } : { signature, meshes };
}

/** Parses the trailer; undefined when it does not have this exact shape (then it stays raw). */
export function parsePhysx(bytes: Uint8Array): PhysxData | undefined {
  if (bytes.length < 36) return undefined;
  try {
    const r = new BinaryReader(bytes, 0, bytes.length, ['physx']);
    const a = readList(r, false);
    const b = readList(r, true);
    const separator = r.u32();
    const c = readList(r, false);
    const d = readList(r, true);
    if (!r.atEnd) return undefined;
    const sig = a.signature;
    if (b.signature !== sig || c.signature !== sig || d.signature !== sig) return undefined;
    return { lists: [a, b, c, d], separator };
  } catch {
    return undefined;
  }
}

export function writePhysx(w: BinaryWriter, p: PhysxData): void {
  p.lists.forEach((l, i) => {
    if (i === 2) w.u32(p.separator);
    w.u32(l.signature);
    w.i32(l.meshes.length);
    l.meshes.forEach((m, k) => {
      w.u32(m.length);
      w.bytes(m);
      if (i === 1 || i === 3) w.i32(l.tags?.[k] ?? 0);
    });
  });
}
