/** `lodsmith info` for ODOL: LODs as meshes, distinct material and texture paths, skeleton bones. */
import { lengthOf } from '../../../model/deferred.ts';
import type { FormatInfo } from '../../registry.ts';
import { resolutionName } from '../resolution.ts';
import type { OdolDocument } from './document.ts';
import type { OdolLod } from './lod.ts';
import type { OdolV4xDocument } from './model.ts';
import type { OdolV7Lod } from './v7.ts';

/**
 * Triangles of a LOD's face table, a quad counting as two: its corners less two per face. Read by
 * length (lengthOf), so a deferred table (DecodeOptions.defer) is not made for it.
 */
export function triangleCount(faces: { sizes: Uint8Array; indices: Uint32Array }): number {
  return lengthOf(faces, 'indices') - 2 * lengthOf(faces, 'sizes');
}

export function vertexCount(lod: OdolLod | OdolV7Lod): number {
  return lengthOf('positions' in lod ? lod.positions : lod.vertices, 'data') / 3;
}

/** Material paths used by a LOD: its materials and the sections that name one directly. */
export function lodMaterialPaths(lod: OdolLod): string[] {
  const out = lod.materials.map((m) => m.name);
  for (const s of lod.sections) if (s.materialIndex === -1 && s.material) out.push(s.material);
  return out.filter((p) => p !== '');
}

/** Texture paths used by a LOD: its texture list and the stage textures of its materials (not procedural ones). */
export function lodTexturePaths(lod: OdolLod | OdolV7Lod): string[] {
  const out = [...lod.textures];
  if ('materials' in lod) {
    for (const m of lod.materials) {
      for (const s of m.stageTextures) out.push(s.texture);
      if (m.stageTI) out.push(m.stageTI.texture);
    }
  }
  return out.filter((p) => p !== '' && !p.startsWith('#'));
}

const distinct = (xs: string[]): string[] => [...new Set(xs)];

export function odolInfo(doc: OdolDocument, byteLength: number): FormatInfo {
  const lods = doc.lods as (OdolLod | OdolV7Lod)[];
  const meshes = lods.map((l) => ({ name: resolutionName(l.resolution), vertices: vertexCount(l), triangles: triangleCount(l.faces) }));
  const v4 = doc.version === 7 ? undefined : (doc as OdolV4xDocument);
  return {
    format: 'p3d-odol',
    version: doc.version,
    bytes: byteLength,
    meshes,
    materials: v4 ? distinct(v4.lods.flatMap(lodMaterialPaths)) : [],
    textures: distinct(lods.flatMap(lodTexturePaths)),
    bones: v4 ? v4.modelInfo.skeleton.bones.map((b) => b.name) : [],
    animations: [],
    lods: lods.length,
    ...(v4?.animations ? { animationClasses: v4.animations.classes.map((c) => c.name) } : {}),
    ...(v4?.prefix ? { prefix: v4.prefix } : {}),
    ...(v4?.modelInfo.skeleton.name ? { skeleton: v4.modelInfo.skeleton.name } : {}),
  };
}
