/** The document types and LOD lookups the P3D editor modules share (MLOD and ODOL alike). */
import type { EditCommand } from '../../model/commands.ts';
import type { NodePath } from '../../model/path.ts';
import type { MlodDocument, MlodLod } from './mlod/types.ts';
import type { OdolDocument } from './odol/document.ts';
import type { OdolLod } from './odol/lod.ts';
import type { OdolV7Lod } from './odol/v7.ts';

export type AnyDoc = MlodDocument | OdolDocument;
export type OdolAnyLod = OdolLod | OdolV7Lod;

export const isMlod = (doc: AnyDoc): doc is MlodDocument => (doc as MlodDocument).signature === 'MLOD';

export function mlodLod(doc: MlodDocument, lod: number): MlodLod {
  const l = doc.lods[lod];
  if (!l) throw new RangeError(`no LOD ${lod}`);
  return l;
}
export function odolLod(doc: OdolDocument, lod: number): OdolAnyLod {
  const l = doc.lods[lod] as OdolAnyLod | undefined;
  if (!l) throw new RangeError(`no LOD ${lod}`);
  return l;
}

/**
 * How the ODOL codec makes a new record (odol/edits.ts `createOdolNode`). It is handed in by the
 * ODOL codec rather than imported here: this module is shared with MLOD, and an import would
 * load ODOL's schema, array reader and LZO/LZSS decoders for every MLOD file (the CLI's
 * `info` on an MLOD file compiled ~90 kB of ODOL code it never ran).
 */
export type OdolNodeFactory = (doc: OdolDocument, parent: NodePath, kind: string) => EditCommand | undefined;

