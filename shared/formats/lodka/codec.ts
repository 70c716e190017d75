/**
 * The LODka 3D `.lod` codec (`lodka-lod`). See NOTES.md for the layout decisions.
 *
 * ```ts
 * const doc = lodkaCodec.decode(bytes);          // LodDocument: typed chunk tree
 * lodkaCodec.encode(doc);                        // identical bytes when untouched
 * lodkaCodec.info(doc, bytes.length);            // FormatInfo + chunks, lightSchemes, colliderSets...
 * lodkaCodec.toScene(doc);                       // unwelded meshes, skeleton, clips, lights...
 * ```
 */
import type { FormatCodec } from '../registry.ts';
import { decodeLod, probeLod } from './decode.ts';
import { checkLodEdit, createLod } from './edit.ts';
import { encodeLod, encodeLodPieces } from './encode.ts';
import { lodArrayLayout, lodQuery } from './marks.ts';
import type { LodDocument } from './schema.ts';
import { lodToScene } from './scene.ts';
import { lodScreenshot } from './screenshot.ts';
import { validateLod } from './validate.ts';
import { infoLod, inspectLod, outlineLod } from './views.ts';

export type { LodDocument } from './schema.ts';

export const lodkaCodec: FormatCodec<LodDocument> = {
  id: 'lodka-lod',
  label: 'LODka 3D model',
  extensions: ['.lod'],
  probe: probeLod,
  decode: (bytes) => decodeLod(bytes),
  // The decoder reads only the lengths of the arrays it reads, never their values (share.ts).
  inSitu: true,
  encode: (doc, opts) => encodeLod(doc, opts),
  encodePieces: (doc, opts) => encodeLodPieces(doc, opts),
  info: infoLod,
  validate: validateLod,
  toScene: (doc) => lodToScene(doc),
  outline: (doc) => outlineLod(doc),
  inspect: inspectLod,
  checkEdit: checkLodEdit,
  create: createLod,
  arrayLayout: lodArrayLayout,
  query: lodQuery,
  // The preview picture lives in an IMG1 chunk.
  screenshot: lodScreenshot,
  gltf: {
    label: 'LODka 3D (.lod)',
    extension: '.lod',
    replaceable: (n) => n.kind === 'mesh',
    load: async () => (await import('./import.ts')).lodkaImporter,
  },
};
