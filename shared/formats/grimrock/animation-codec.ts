/**
 * The `grimrock-animation` codec: Legend of Grimrock `.animation` (ANIM v1 and the Grimrock 2 v2).
 */
import type { EditCommand } from '../../model/commands.ts';
import type { Inspection, OutlineNode } from '../../model/outline.ts';
import { getAt, type NodePath } from '../../model/path.ts';
import type { Problem } from '../../model/problems.ts';
import type { FormatCodec, FormatInfo } from '../registry.ts';
import { decodeAnimation, encodeAnimation, probeAnimation } from './animation-io.ts';
import { animationToScene } from './scene.ts';
import { AnimationHeader, type GrimrockAnimation } from './schema.ts';
import { field, structFields } from '../../model/inspect-fields.ts';

export function animationInfo(doc: GrimrockAnimation, byteLength: number): FormatInfo {
  return {
    format: 'grimrock-animation',
    version: doc.version,
    bytes: byteLength,
    meshes: [],
    materials: [],
    bones: doc.items.map((i) => i.node),
    animations: [{ name: doc.name, frames: doc.numFrames }],
    framesPerSecond: doc.framesPerSecond,
  };
}

export function validateAnimation(doc: GrimrockAnimation): Problem[] {
  const out: Problem[] = [];
  if (!(doc.framesPerSecond > 0)) out.push({ severity: 'warning', message: `frames per second is ${doc.framesPerSecond}`, where: 'framesPerSecond', path: ['framesPerSecond'] });
  if (doc.numFrames < 0) out.push({ severity: 'error', message: `frame count ${doc.numFrames} is negative`, where: 'numFrames', path: ['numFrames'] });
  const names = new Set<string>();
  doc.items.forEach((it, i) => {
    const path: NodePath = ['items', i];
    const where = `items[${i}]`;
    const offset = it.$span?.[0];
    const at = offset !== undefined ? { offset } : {};
    const np = it.positions.length / 3, nr = it.rotations.length / 4, ns = it.scales.length / 3;
    if (!Number.isInteger(np) || !Number.isInteger(nr) || !Number.isInteger(ns)) out.push({ severity: 'error', message: 'key arrays do not hold whole keys', where, path, ...at });
    if (doc.version === 1 && (np !== nr || np !== ns)) out.push({ severity: 'error', message: 'version 1 needs the same key count for all channels', where, path, ...at });
    for (const [n, what] of [[np, 'position'], [nr, 'rotation'], [ns, 'scale']] as const) {
      if (n > 1 && n !== doc.numFrames) out.push({ severity: 'warning', message: `${n} ${what} keys for ${doc.numFrames} frames`, where, path, ...at });
    }
    if (names.has(it.node)) out.push({ severity: 'warning', message: `node ${it.node} is animated twice`, where, path, ...at });
    names.add(it.node);
  });
  return out;
}

export function animationOutline(doc: GrimrockAnimation): OutlineNode {
  return {
    path: [], name: 'ANIM', label: `${doc.name || 'animation'} (v${doc.version}, ${doc.numFrames} frames)`, kind: 'animation', span: doc.$span,
    children: [{
      path: ['items'], name: 'items', kind: 'container', count: doc.items.length,
      children: doc.items.map((it, i): OutlineNode => ({
        path: ['items', i], name: `items[${i}]`, label: it.node, kind: 'bone', count: Math.max(it.positions.length / 3, it.rotations.length / 4, it.scales.length / 3), span: it.$span,
      })),
    }],
  };
}

export function animationInspect(doc: GrimrockAnimation, path: NodePath): Inspection | undefined {
  if (path.length === 0) {
    return {
      title: 'Grimrock animation',
      fields: [
        field('magic', 'string', ['magic'], doc.magic, { readonly: true }),
        field('version', 'i32', ['version'], doc.version, { readonly: true, note: '1 = Grimrock 1 interleaved keys; 2 = Grimrock 2 separate key lists' }),
        ...structFields(AnimationHeader, doc as unknown as Record<string, unknown>, []),
        field('numItems', 'i32', ['numItems'], doc.items.length, { readonly: true }),
      ],
    };
  }
  if (path.length === 2 && path[0] === 'items') {
    const it = getAt(doc, path) as GrimrockAnimation['items'][number] | undefined;
    if (!it) return undefined;
    return {
      title: `Item ${it.node}`,
      fields: [
        field('node', 'string', [...path, 'node'], it.node, { note: 'Name of the node to be animated' }),
        field('positions', 'array', [...path, 'positions'], it.positions, { readonly: true, note: 'Vec3 per key' }),
        field('rotations', 'array', [...path, 'rotations'], it.rotations, { readonly: true, note: 'Quaternion x, y, z, w per key' }),
        field('scales', 'array', [...path, 'scales'], it.scales, { readonly: true, note: 'Vec3 per key' }),
      ],
    };
  }
  return undefined;
}

export function checkAnimationEdit(doc: GrimrockAnimation, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return cmd.commands.map((c) => checkAnimationEdit(doc, c)).find((m) => m);
  if (cmd.op !== 'set') return 'only field edits are supported';
  const p = cmd.path;
  if (p.length === 1 && typeof p[0] === 'string' && ['name', 'framesPerSecond', 'numFrames'].includes(p[0])) return AnimationHeader.checkField(p[0], cmd.value);
  if (p.length === 3 && p[0] === 'items' && p[2] === 'node') return typeof cmd.value === 'string' ? undefined : 'must be text';
  if (p.length === 3 && p[0] === 'items' && ['positions', 'rotations', 'scales'].includes(String(p[2]))) {
    return cmd.value instanceof Float32Array ? undefined : 'keys must be a Float32Array';
  }
  return `${p.join('/')} cannot be edited`;
}

export const grimrockAnimationCodec: FormatCodec<GrimrockAnimation> = {
  id: 'grimrock-animation',
  label: 'Legend of Grimrock animation',
  extensions: ['.animation'],
  probe: probeAnimation,
  decode: (bytes) => decodeAnimation(bytes),
  encode: (doc, opts) => encodeAnimation(doc, opts?.reuseRaw),
  info: animationInfo,
  validate: validateAnimation,
  toScene: animationToScene,
  outline: animationOutline,
  inspect: animationInspect,
  checkEdit: checkAnimationEdit,
  animation: { role: 'clips' },
  gltf: {
    label: 'Legend of Grimrock animation (.animation)',
    extension: '.animation',
    load: async () => (await import('./import.ts')).grimrockAnimationImporter,
  },
};
