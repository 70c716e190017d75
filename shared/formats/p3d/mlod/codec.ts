/**
 * The `p3d-mlod` codec: editable P3D models (`MLOD` header, P3DM and SP3X LODs). Format notes
 * in NOTES.md beside this file.
 *
 * Not `inSitu` (registry.ts): the document's deferred columns read the input bytes after decode
 * returns, so those bytes must stay as they are (a sharing decode only views them).
 */
import { p3dArrayLayout, p3dQuery } from '../editor.ts';
import { p3dRuleSet } from '../rules.ts';
import type { FormatCodec } from '../../registry.ts';
import { P3D_EDITOR, P3D_TEXTURES } from '../capabilities.ts';
import { decodeMlod, probeMlod } from './decode.ts';
import { checkMlodEdit, createMlodNode } from './edits.ts';
import { encodeMlod, encodeMlodPieces } from './encode.ts';
import { mlodToScene } from './scene.ts';
import type { MlodDocument } from './types.ts';
import { mlodInfo, mlodInspect, mlodOutline, mlodValidate } from './views.ts';

export const mlodCodec: FormatCodec<MlodDocument> = {
  id: 'p3d-mlod',
  label: 'P3D model (MLOD, editable)',
  extensions: ['.p3d'],
  probe: probeMlod,
  decode: (bytes) => decodeMlod(bytes),
  encode: (doc, opts) => encodeMlod(doc, opts),
  encodePieces: (doc, opts) => encodeMlodPieces(doc, opts),
  info: mlodInfo,
  validate: mlodValidate,
  toScene: mlodToScene,
  outline: mlodOutline,
  inspect: mlodInspect,
  checkEdit: checkMlodEdit,
  create: createMlodNode,
  arrayLayout: (doc, name, data, path) => p3dArrayLayout(doc, name, data, path),
  query: (doc, q) => p3dQuery(doc, q),
  // The P3D editors (face groups, proxies, named selections) and one LOD at a time in the preview.
  editor: P3D_EDITOR,
  // Arma animations (.rtm) play on P3D models (shared/formats/p3d/rtm).
  animation: { role: 'model' },
  textures: P3D_TEXTURES,
  // Doors, turrets, hatches: model.cfg beside the model drives them (modelcfg/animator.ts).
  sourceAnimations: { configFile: 'model.cfg', load: async () => (await import('../modelcfg/animator.ts')).mlodAnimator },
  gltf: {
    label: 'Arma P3D, editable MLOD (.p3d)',
    extension: '.p3d',
    // A LOD takes the whole glTF.
    replaceable: (n) => n.kind === 'lod',
    load: async () => (await import('./import.ts')).mlodImporter,
  },
  rules: p3dRuleSet,
};
