/**
 * The `p3d-rtm` codec: Arma animations, plain `RTM_0101` (+ `RTM_MDAT`) and binarized `BMTR`
 * v3..v5, in one codec because both use `.rtm` and the signature tells them apart.
 */
import type { EditCommand } from '../../../model/commands.ts';
import { field } from '../../../model/inspect-fields.ts';
import type { Inspection, OutlineNode } from '../../../model/outline.ts';
import type { NodePath } from '../../../model/path.ts';
import type { Problem } from '../../../model/problems.ts';
import { encodeText } from '../../../binary/text.ts';
import { probeRtm } from './probe.ts';
import type { FormatCodec, FormatInfo } from '../../registry.ts';
import { decodeRtm, encodePlain, encodeRtm, fieldName } from './io.ts';
import { bmtrToPlain } from './pose.ts';
import { cfgSkeleton } from './skeleton.ts';
import { rtmToSceneGraph } from './scene.ts';
import { BMTR_COMPRESS_FROM, BMTR_WORDS, NAME_FIELD, type RtmDocument } from './types.ts';

export function rtmPhases(doc: RtmDocument): number[] {
  return doc.kind === 'bmtr' ? Array.from(doc.phases) : doc.frames.map((f) => f.phase);
}

export function rtmInfo(doc: RtmDocument, byteLength: number): FormatInfo {
  const phases = rtmPhases(doc);
  return {
    format: 'p3d-rtm',
    version: doc.kind === 'bmtr' ? `BMTR v${doc.version}` : 'RTM_0101',
    bytes: byteLength,
    meshes: [],
    materials: [],
    bones: [...doc.bones],
    animations: [{ name: '', frames: doc.frames.length }],
    binarized: doc.kind === 'bmtr',
    needsSkeleton: doc.kind === 'bmtr',
    motion: [...doc.motion],
    properties: doc.properties.map((p) => ({ phase: p.phase, name: p.name, value: p.value })),
    phases: phases.length ? [phases[0], phases[phases.length - 1]] : [],
    ...(doc.kind === 'bmtr' ? { compressedArrays: [doc.phasesPacked, ...doc.frames.map((f) => f.packed)].filter((p) => p.compressed).length } : {}),
  };
}

export function validateRtm(doc: RtmDocument): Problem[] {
  const out: Problem[] = [];
  const add = (severity: Problem['severity'], message: string, path: NodePath, offset?: number): void => {
    out.push({ severity, message, where: path.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('/') || 'file', path, ...(offset !== undefined ? { offset } : {}) });
  };
  // Phases: 0..1, never going back.
  const phases = rtmPhases(doc);
  let last = -Infinity;
  phases.forEach((p, k) => {
    const path: NodePath = doc.kind === 'bmtr' ? ['phases', k] : ['frames', k, 'phase'];
    const at = doc.kind === 'rtm' ? doc.frames[k]?.$span?.[0] : undefined;
    if (!(p >= 0 && p <= 1)) add('error', `phase ${p} of frame ${k} is outside 0..1`, path, at);
    else if (p < last) add('error', `phase ${p} of frame ${k} comes before the previous frame's ${last}`, path, at);
    if (p === p) last = Math.max(last, p);
  });
  if (doc.frames.length === 0) add('warning', 'the animation has no frames', ['frames']);
  // Bone names: unique (the game compares them without case), short enough for plain RTM.
  const seen = new Map<string, number>();
  doc.bones.forEach((b, i) => {
    const path: NodePath = ['bones', i];
    const key = b.toLowerCase();
    if (b === '') add('error', `bone ${i} has no name`, path);
    if (seen.has(key)) add('error', `bone name "${b}" is used by bone ${seen.get(key)} too`, path);
    else seen.set(key, i);
    if (doc.kind === 'rtm' && encodeText(b, 'latin1').length > NAME_FIELD - 1) add('error', `bone name "${b}" is longer than ${NAME_FIELD - 1} bytes`, path);
  });
  doc.properties.forEach((p, i) => {
    if (!(p.phase >= 0 && p.phase <= 1)) add('warning', `property "${p.name}" is at phase ${p.phase}, outside 0..1`, ['properties', i], p.$span?.[0]);
  });
  if (doc.kind === 'rtm') {
    if (doc.frameCount !== doc.frames.length) add('error', `header says ${doc.frameCount} frames, the file holds ${doc.frames.length}`, ['frameCount']);
    doc.frames.forEach((f, k) => {
      if (f.matrices.length !== doc.bones.length * 12) add('error', `frame ${k} holds ${f.matrices.length / 12} transforms for ${doc.bones.length} bones`, ['frames', k], f.$span?.[0]);
      if (f.names.length !== doc.bones.length * NAME_FIELD) return;
      const wrong = doc.bones.findIndex((b, i) => fieldName(f.names, i).toLowerCase() !== b.toLowerCase());
      if (wrong >= 0) add('warning', `frame ${k} names bone ${wrong} "${fieldName(f.names, wrong)}", the header "${doc.bones[wrong]}"`, ['frames', k], f.$span?.[0]);
      for (let j = 0; j < f.matrices.length; j++) {
        if (!Number.isFinite(f.matrices[j]!)) {
          add('error', `frame ${k}: the transform of bone "${doc.bones[Math.floor(j / 12)]}" holds ${f.matrices[j]}`, ['frames', k, 'matrices'], f.$span?.[0]);
          break;
        }
      }
    });
  } else {
    if (doc.boneCount2 !== doc.boneCount) add('error', `the two bone counts differ (${doc.boneCount} and ${doc.boneCount2})`, ['boneCount2']);
    if (doc.phases.length !== doc.frames.length) add('error', `${doc.phases.length} phases for ${doc.frames.length} frames`, ['phases']);
    doc.frames.forEach((f, k) => {
      const n = f.transforms.length / BMTR_WORDS;
      if (n !== doc.bones.length) add('error', `frame ${k} holds ${n} transforms for ${doc.bones.length} bones`, ['frames', k], f.$span?.[0]);
      if (doc.version < 5 && f.packed.compressed !== f.transforms.byteLength >= BMTR_COMPRESS_FROM) add('warning', `frame ${k}: compression does not follow the 1024-byte rule`, ['frames', k], f.$span?.[0]);
      for (let i = 0; i < n; i++) {
        const o = i * BMTR_WORDS;
        const q = Math.hypot(f.transforms[o]!, f.transforms[o + 1]!, f.transforms[o + 2]!, f.transforms[o + 3]!) / 16384;
        if (Math.abs(q - 1) > 0.01) {
          add('warning', `frame ${k}: the rotation of bone "${doc.bones[i]}" is not a unit quaternion (length ${q.toFixed(4)})`, ['frames', k, 'transforms'], f.$span?.[0]);
          break;
        }
      }
    });
  }
  return out;
}

const fmt = (x: number): string => (Number.isFinite(x) ? String(Math.round(x * 10000) / 10000) : String(x));

export function rtmOutline(doc: RtmDocument): OutlineNode {
  const bmtr = doc.kind === 'bmtr';
  const children: OutlineNode[] = [];
  children.push({
    path: ['properties'], name: bmtr ? 'properties' : 'RTM_MDAT', label: 'frame properties', kind: 'container', count: doc.properties.length,
    children: doc.properties.map((p, i): OutlineNode => ({ path: ['properties', i], name: `properties[${i}]`, label: `${fmt(p.phase)}: ${p.name} = ${p.value}`, kind: 'property', span: p.$span })),
  });
  children.push({
    path: ['bones'], name: 'bones', kind: 'skeleton', count: doc.bones.length,
    children: doc.bones.map((b, i): OutlineNode => ({ path: ['bones', i], name: `bones[${i}]`, label: b, kind: 'bone' })),
  });
  if (bmtr) children.push({ path: ['phases'], name: 'phases', label: 'frame times', kind: 'array', count: doc.phases.length });
  children.push({
    path: ['frames'], name: 'frames', kind: 'animation', count: doc.frames.length,
    children: doc.frames.map((f, k): OutlineNode => ({
      path: ['frames', k], name: `frames[${k}]`, kind: 'record', span: f.$span,
      label: `phase ${fmt(bmtr ? doc.phases[k] ?? NaN : (f as { phase: number }).phase)}${bmtr && (f as { packed: { compressed: boolean } }).packed.compressed ? ', LZO' : ''}`,
    })),
  });
  const what = bmtr ? `BMTR v${doc.version}` : 'RTM_0101';
  return { path: [], name: bmtr ? 'BMTR' : 'RTM', label: `${what}, ${doc.bones.length} bones, ${doc.frames.length} frames`, kind: 'animation', span: doc.$span, children };
}

export function rtmInspect(doc: RtmDocument, path: NodePath): Inspection | undefined {
  const bmtr = doc.kind === 'bmtr';
  if (path.length === 0) {
    const fields = [
      field('signature', 'string', ['kind'], bmtr ? 'BMTR' : 'RTM_0101', { readonly: true }),
      ...(bmtr ? [
        field('version', 'u32', ['version'], doc.version, { readonly: true, note: '3 = Arma 2; 4, 5 = Arma 3 (5: each array says whether it is compressed)' }),
        field('always1', 'u8', ['always1'], doc.always1, { note: 'Always1 (wiki): 1 in every real file' }),
      ] : [field('mdat', 'bool', ['mdat'], doc.mdat, { readonly: true, note: 'The file starts with an RTM_MDAT frame-properties block' })]),
      field('motion', 'vec3', ['motion'], doc.motion, { note: 'Total movement over the animation (x y z, P3D axes): a walk cycle moves the character this far' }),
      field('frameCount', 'u32', ['frameCount'], doc.frames.length, { readonly: true }),
      ...(bmtr ? [field('unknown', 'u32', ['unknown'], doc.unknown, { note: 'The wiki\'s "Generally0": 0 or 1 in real files' })] : []),
      field('boneCount', 'u32', ['boneCount'], doc.bones.length, { readonly: true }),
    ];
    return { title: bmtr ? `Binarized RTM (BMTR v${doc.version})` : 'RTM animation', fields };
  }
  const [head, index, leaf] = path;
  if (head === 'bones' && typeof index === 'number' && index < doc.bones.length) {
    return { title: `Bone ${doc.bones[index]}`, fields: [field('name', 'string', ['bones', index], doc.bones[index], { note: bmtr ? 'Bone name (lower case in binarized files)' : 'Bone name: at most 31 bytes' })] };
  }
  if (head === 'properties' && typeof index === 'number') {
    const p = doc.properties[index];
    if (!p) return undefined;
    return {
      title: `Property ${p.name}`,
      fields: [
        field('phase', 'f32', ['properties', index, 'phase'], p.phase, { note: 'Where in the animation (0..1) the property applies', span: p.$span }),
        field('name', 'string', ['properties', index, 'name'], p.name),
        field('value', 'string', ['properties', index, 'value'], p.value),
      ],
    };
  }
  if (head === 'phases' && bmtr) return { title: 'Frame times', fields: [field('phases', 'array', ['phases'], doc.phases, { note: 'FrameTimes: the phase (0..1) of each frame' })] };
  if (head === 'frames' && typeof index === 'number' && leaf === undefined) {
    if (doc.kind === 'bmtr') {
      const f = doc.frames[index];
      if (!f) return undefined;
      return {
        title: `Frame ${index}`,
        fields: [
          field('phase', 'f32', ['phases', index], doc.phases[index], { note: 'FrameTimes entry of this frame' }),
          field('boneCount', 'u32', ['frames', index, 'boneCount'], f.transforms.length / BMTR_WORDS, { readonly: true }),
          field('compressed', 'bool', ['frames', index, 'packed', 'compressed'], f.packed.compressed, { readonly: doc.version < 5, note: 'LZO1X-compressed array (v3, v4: from 1024 bytes; v5: a flag)' }),
          field('transforms', 'array', ['frames', index, 'transforms'], f.transforms, { note: 'Per bone: quaternion x y z w (i16 / 16384), position x y z (half-float bits), relative to the parent bone' }),
        ],
      };
    }
    const f = doc.frames[index];
    if (!f) return undefined;
    return {
      title: `Frame ${index}`,
      fields: [
        field('phase', 'f32', ['frames', index, 'phase'], f.phase, { note: 'FrameTime: 0..1 through the animation', span: f.$span ? [f.$span[0], f.$span[0] + 4] : undefined }),
        field('matrices', 'array', ['frames', index, 'matrices'], f.matrices, { note: 'Per bone 12 floats: the 3x3 rows, then the translation (model space, P3D axes; identity = rest pose)' }),
      ],
    };
  }
  return undefined;
}

export function checkRtmEdit(doc: RtmDocument, cmd: EditCommand): string | undefined {
  if (cmd.op === 'batch') return cmd.commands.map((c) => checkRtmEdit(doc, c)).find((m) => m);
  if (cmd.op !== 'set') return 'frames and bones are added or removed by converting, not in the tree';
  const p = cmd.path;
  const v = cmd.value;
  const num = (): string | undefined => (typeof v === 'number' ? undefined : 'must be a number');
  if (p.length === 1 && p[0] === 'motion') return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number') ? undefined : 'must be three numbers';
  if (p.length === 1 && doc.kind === 'bmtr' && (p[0] === 'always1')) return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255 ? undefined : 'must be 0..255';
  if (p.length === 1 && doc.kind === 'bmtr' && p[0] === 'unknown') return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff ? undefined : 'must be a u32';
  if (p.length === 2 && p[0] === 'bones' && typeof p[1] === 'number' && p[1] < doc.bones.length) {
    if (typeof v !== 'string' || v === '') return 'must be a name';
    const b = encodeText(v, 'latin1');
    if (b.includes(0)) return 'must not hold a NUL';
    if (doc.kind === 'rtm' && b.length > NAME_FIELD - 1) return `plain RTM bone names hold at most ${NAME_FIELD - 1} bytes`;
    if (doc.bones.some((o, i) => i !== p[1] && o.toLowerCase() === v.toLowerCase())) return `another bone is named "${v}"`;
    return undefined;
  }
  if (p.length === 3 && p[0] === 'properties' && typeof p[1] === 'number' && p[1] < doc.properties.length) {
    if (p[2] === 'phase') return num();
    if (p[2] === 'name' || p[2] === 'value') {
      if (typeof v !== 'string') return 'must be text';
      const b = encodeText(v, 'latin1');
      if (doc.kind === 'rtm' && b.length > 255) return 'RTM_MDAT texts hold at most 255 bytes';
      if (b.includes(0)) return 'must not hold a NUL';
      return undefined;
    }
  }
  if (doc.kind === 'rtm' && p.length === 3 && p[0] === 'frames' && typeof p[1] === 'number' && p[1] < doc.frames.length) {
    if (p[2] === 'phase') return num();
    if (p[2] === 'matrices') return v instanceof Float32Array && v.length === doc.bones.length * 12 ? undefined : `must be ${doc.bones.length * 12} floats`;
  }
  if (doc.kind === 'rtm' && p.length === 4 && p[0] === 'frames' && p[2] === 'matrices') return num();
  if (doc.kind === 'bmtr') {
    if (p.length === 2 && p[0] === 'phases') return num();
    if (p.length === 1 && p[0] === 'phases') return v instanceof Float32Array && v.length === doc.frames.length ? undefined : `must be ${doc.frames.length} floats`;
    if (p.length === 4 && p[0] === 'frames' && p[2] === 'transforms') return Number.isInteger(v) && (v as number) >= -32768 && (v as number) <= 32767 ? undefined : 'must be a 16-bit integer';
    if (p.length === 4 && p[0] === 'frames' && p[2] === 'packed' && p[3] === 'compressed') return doc.version >= 5 && typeof v === 'boolean' ? undefined : 'only v5 files choose compression per array';
  }
  return `${p.join('/')} cannot be edited`;
}

export const rtmCodec: FormatCodec<RtmDocument> = {
  id: 'p3d-rtm',
  label: 'Arma animation (RTM)',
  extensions: ['.rtm'],
  probe: probeRtm,
  decode: (bytes) => decodeRtm(bytes),
  encode: (doc, opts) => encodeRtm(doc, opts?.reuseRaw),
  info: rtmInfo,
  validate: validateRtm,
  toScene: (doc, opts) => rtmToSceneGraph(doc, { ...(opts?.skeleton ? { skeleton: opts.skeleton } : {}), ...(opts?.duration ? { duration: opts.duration } : {}), ...(opts?.origin ? { origin: opts.origin } : {}) }),
  outline: rtmOutline,
  inspect: rtmInspect,
  checkEdit: checkRtmEdit,
  animation: {
    role: 'clips',
    playsOn: ['p3d-odol', 'p3d-mlod'],
    // A BMTR composed through its skeleton is a plain RTM (A3OB's conversion); a plain one is itself.
    resolve: (doc, skeleton) => {
      const d = doc as RtmDocument;
      return d.kind === 'bmtr' ? encodePlain(bmtrToPlain(d, skeleton)) : encodeRtm(d);
    },
    skeletonConfig: { extension: '.cfg', read: (text, name) => cfgSkeleton(text, name) },
  },
  gltf: {
    label: 'Arma animation, plain RTM (.rtm)',
    extension: '.rtm',
    load: async () => (await import('./import.ts')).rtmImporter,
  },
  arrayLayout: (doc, name) => {
    if (name === 'matrices') return { stride: 12, columns: ['x.x', 'x.y', 'x.z', 'y.x', 'y.y', 'y.z', 'z.x', 'z.y', 'z.z', 'tx', 'ty', 'tz'], note: 'one bone: the 3x3 rows, then the translation' };
    if (name === 'transforms') return { stride: BMTR_WORDS, columns: ['qx', 'qy', 'qz', 'qw', 'px', 'py', 'pz'], note: 'one bone: quaternion words (/ 16384), position half-float bits' };
    if (name === 'phases') return { stride: 1, columns: ['phase'], note: `one frame of ${doc.frames.length}` };
    return undefined;
  },
};
