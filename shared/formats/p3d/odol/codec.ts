/**
 * The ODOL codec (`p3d-odol`): binarized P3D models of Operation Flashpoint (v7) and of the Arma
 * family (v28 up to v75, corpus-checked for 40, 48, 50, 53, 54, 68 and 73).
 */
import { DecodeError, isDecodeError } from '../../../errors.ts';
import { probeOdol } from '../family.ts';
import { p3dArrayLayout, p3dQuery } from '../editor.ts';
import { p3dRuleSet } from '../rules.ts';
import type { FormatCodec, FormatInfo } from '../../registry.ts';
import { P3D_EDITOR, P3D_TEXTURES } from '../capabilities.ts';
import { decodeV4x, encodeV4x, encodeV4xPieces } from './model.ts';
import { decodeV7, encodeV7 } from './v7.ts';
import { isV7, MAX_V4X, MIN_V4X, type OdolDocument } from './document.ts';
import { odolInfo } from './info.ts';
import { validateOdol } from './validate.ts';
import { odolScene } from './scene.ts';
import { inspectOdol, outlineOdol } from './views.ts';
import { checkOdolEdit, createOdolNode } from './edits.ts';

export { isV7, MAX_V4X, MIN_V4X, type OdolDocument } from './document.ts';

function versionOf(bytes: Uint8Array): number {
  return (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24)) >>> 0;
}

export const odolCodec: FormatCodec<OdolDocument> = {
  id: 'p3d-odol',
  label: 'P3D model (binarized ODOL)',
  extensions: ['.p3d'],
  probe: probeOdol,
  decode(bytes, opts) {
    if (bytes.length < 12) throw new DecodeError(`file is ${bytes.length} bytes, too short for an ODOL header`, 0, '');
    if (String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) !== 'ODOL') throw new DecodeError('signature is not ODOL', 0, '');
    const v = versionOf(bytes);
    try {
      if (v === 7) return decodeV7(bytes);
      if (v >= MIN_V4X && v <= MAX_V4X) return decodeV4x(bytes, !!opts?.defer);
    } catch (e) {
      if (isDecodeError(e)) throw e;
      // A reader bug must still surface as bad input with a place, never as a crash.
      throw new DecodeError(`unreadable data (${e instanceof Error ? e.message : String(e)})`, 0, '');
    }
    throw new DecodeError(`ODOL version ${v} is not supported (7 and ${MIN_V4X}..${MAX_V4X} are)`, 4, 'version');
  },
  encode(doc, opts) {
    return isV7(doc) ? encodeV7(doc, opts) : encodeV4x(doc, opts);
  },
  // v4x: the header, then each LOD (an untouched one a view of the input), never joined.
  encodePieces: (doc, opts) => (isV7(doc) ? [encodeV7(doc, opts)] : encodeV4xPieces(doc, opts)),
  info(doc, byteLength): FormatInfo {
    return odolInfo(doc, byteLength);
  },
  validate: validateOdol,
  rules: p3dRuleSet,
  toScene: odolScene,
  outline: outlineOdol,
  inspect: inspectOdol,
  checkEdit: checkOdolEdit,
  create: createOdolNode,
  arrayLayout: (doc, name, data, path) => p3dArrayLayout(doc, name, data, path),
  query: (doc, q) => p3dQuery(doc, q, createOdolNode),
  // The P3D editors (face groups, proxies, named selections) and one LOD at a time in the preview.
  editor: P3D_EDITOR,
  // Arma animations (.rtm) play on P3D models (shared/formats/p3d/rtm).
  animation: { role: 'model' },
  textures: P3D_TEXTURES,
  // Animations compiled in by the binarizer, played by source values (modelcfg/animator.ts).
  sourceAnimations: { load: async () => (await import('../modelcfg/animator.ts')).odolAnimator },
};
