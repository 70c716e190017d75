/**
 * Field descriptions of the MLOD records, for the inspector and `dump`: names as the Bohemia wiki
 * ("P3D File Format - MLOD") spells them, flag bit labels from "P3D Point and Face Flags".
 * The decoder reads faces and points in bulk (typed arrays), so these structs describe the
 * records rather than drive the bulk reads.
 */
import { cstring, f32, fixedBytes, flagsOf, struct, u32, vec3 } from '../../../schema/schema.ts';
import { madeOnce } from '../../../binary/once.ts';

/** Point flag bits (bit i = label i), from the wiki's "Point Flags" table. */
export const POINT_FLAG_LABELS: readonly string[] = [
  'on surface', 'above surface', 'under surface', 'keep height',
  'shining', 'always in shadow', 'fully lighted', 'half lighted',
  'decal', 'radio12', '', '',
  'fog none', 'fog sky', '', '',
  'user 1', 'user 2', 'user 4', 'user 8', 'user 16', 'user 32', 'user 64', 'user 128',
  'hidden',
];

/** Face flag bits (bit i = label i), from the wiki's "Face Flags" table. */
export const FACE_FLAG_LABELS: readonly string[] = [
  '', '', '', '', 'disable shadow', 'lighting both sides', '', 'lighting position',
  'z-bias low bit', 'z-bias high bit', '', '', '', '', '', '',
  '', '', '', '', 'lighting reversed', 'lighting flat', '', '',
  'disable texture merging',
  'user 1', 'user 2', 'user 4', 'user 8', 'user 16', 'user 32', 'user 64',
];

/**
 * The record structs, made on first use: only the inspector's views and `dump` read them, and
 * making them with the MLOD code (each `.note()` copies its field type) was ~30 kB of the young
 * heap that every `lodsmith info` on an MLOD file fills (docs/performance.md, "Start-up").
 */
export const mlodStructs = madeOnce(() => {
  const MlodHeader = struct('MLOD.header', {
    signature: fixedBytes(4).note('"MLOD"').derived(),
    version: u32.note('0x101 in every known file'),
    lodCount: u32.note('Number of LODs following').derived(),
  });

  const LodHeader = struct('MLOD.lodHeader', {
    signature: fixedBytes(4).note('"P3DM" (Arma) or "SP3X" (OFP)'),
    headerSize: u32.note('28: the header size including the signature').derived(),
    version: u32.note('Minor version: 0x100 for P3DM, 0x99 for SP3X'),
    pointCount: u32.note('NoOfPoints').derived(),
    normalCount: u32.note('NoOfFaceNormals').derived(),
    faceCount: u32.note('NoOfFaces').derived(),
    flags: u32.note('Unknown flag bits, 0 in every known file'),
  });

  const Point = struct('MLOD.point', {
    position: vec3.note('x, y, z (left-handed, y up)').unit('m'),
    flags: flagsOf('u32', POINT_FLAG_LABELS).note('Point flags'),
  });

  const FaceVertex = struct('MLOD.faceVertex', {
    point: u32.note('Index into the points'),
    normal: u32.note('Index into the normals'),
    u: f32.note('Texture U'),
    v: f32.note('Texture V'),
  });

  const P3dmFaceTail = struct('MLOD.faceTail', {
    flags: flagsOf('u32', FACE_FLAG_LABELS).note('Face flags'),
    texture: cstring().note('Texture path (.paa/.pac or procedural #(argb,...))'),
    material: cstring().note('Material path (.rvmat)'),
  });

  const PropertyFields = struct('MLOD.property', {
    key: fixedBytes(64).note('Property name, zero-padded to 64 bytes'),
    value: fixedBytes(64).note('Property value, zero-padded to 64 bytes'),
  });

  const Resolution = struct('MLOD.resolution', {
    resolution: f32.note('LOD resolution: 0..999 visual, 1e13 Geometry, 1e15 Memory, ...'),
  });
  return { MlodHeader, LodHeader, Point, FaceVertex, P3dmFaceTail, PropertyFields, Resolution };
});
