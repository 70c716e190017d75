/**
 * Fixed-layout records of ODOL v40+, one schema each, built per version because fields come and
 * go with the version number. Field names follow the community documents ("P3D Model Info",
 * "P3D Lod Proxies", "P3D Lod Sections", "P3D File Format - ODOLV4x") where they name the field.
 */
import type { BinaryReader } from '../../../binary/reader.ts';
import type { BinaryWriter } from '../../../binary/writer.ts';
import {
  arrayOf, bool, cstring, f32, floats, i16, i32, i8, mat3, mat4x3, rgba, struct, u32, u8, vec3, type FieldMap, type Struct,
} from '../../../schema/schema.ts';

// Floats are the toolkit's: numbers in the document, and a NaN with a payload (binarized files
// hold some: the face area of shadow LODs) keeps its stored bytes in the record's NaN bits, so it
// is written back bit for bit while the field is still NaN (Struct in schema.ts; fields read by
// hand use readFloatKept / readFloatsKept).
export { f32, floats, mat3, mat4x3, rgba, vec3 };

/**
 * The LOD resolutions (header order): numbers, and for a NaN with a payload its exact bits (a
 * LOD keeps them in `resolutionBits`; the quiet NaN 0x7fc00000 is what writing NaN gives anyway).
 */
export function readResolutions(r: BinaryReader, n: number): { values: number[]; bits: (number | undefined)[] } {
  const at = r.pos;
  const values = r.f32s(n);
  const bits = values.map((v, i) => {
    if (!Number.isNaN(v)) return undefined;
    const b = r.view.getUint32(at + 4 * i, true);
    return b === 0x7fc00000 ? undefined : b;
  });
  return { values, bits };
}

/** Stores a decoded resolution: a number, plus the exact bits when it is a NaN with a payload. */
export function storeResolution(l: { resolution: number; resolutionBits?: number }, v: number, bits: number | undefined): void {
  l.resolution = v;
  if (bits !== undefined) l.resolutionBits = bits;
}

export function writeResolution(w: BinaryWriter, l: { resolution: number; resolutionBits?: number }): void {
  if (Number.isNaN(l.resolution) && l.resolutionBits !== undefined) w.u32(l.resolutionBits);
  else w.f32(l.resolution);
}

/** A record with every field zero or empty (the toolkit's `blank`). */
export function blankOf(s: Struct<FieldMap>): Record<string, unknown> {
  return s.blank();
}

const cache = new Map<string, Struct<FieldMap>>();
function cached(key: string, make: () => Struct<FieldMap>): Struct<FieldMap> {
  let s = cache.get(key);
  if (!s) cache.set(key, (s = make()));
  return s;
}

/** DayZ wrote ODOL 53 and 54 on its own branch: its ModelInfo differs from Arma's (see NOTES.md). */
export const isDayZ = (version: number): boolean => version === 53 || version === 54;

/** ModelInfo up to the skeleton. */
export function modelInfoHead(v: number): Struct<FieldMap> {
  return cached(`mi-head-${v}`, () => {
    const f: FieldMap = {
      special: i32.note('Special flags (ClipFlags of the whole model)'),
      boundingSphere: f32.note('Radius of the bounding sphere').unit('m'),
      geometrySphere: f32.note('Radius of the geometry LOD sphere').unit('m'),
      remarks: i32.note('Remarks bits'),
      andHints: u32.note('AND of the clip hints of all LODs'),
      orHints: u32.note('OR of the clip hints of all LODs'),
      aimingCenter: vec3.note('Aiming centre'),
      color: u32.note('Map icon colour (packed ARGB)'),
      colorType: u32.note('Map selected colour (packed ARGB)'),
      viewDensity: f32.note('View density (-1 default, 0 opaque, 1 transparent)'),
      bboxMin: vec3.note('Bounding box minimum'),
      bboxMax: vec3.note('Bounding box maximum'),
    };
    if (v >= 70) f.lodDensityCoef = f32.note('LOD density coefficient (v70+)');
    if (v >= 71) f.drawImportance = f32.note('Draw importance (v71+)');
    if (v >= 52) {
      f.bboxMinVisual = vec3.note('Visual bounding box minimum (v52+)');
      f.bboxMaxVisual = vec3.note('Visual bounding box maximum (v52+)');
    }
    f.boundingCenter = vec3.note('Bounding centre (all coordinates are relative to it)');
    f.geometryCenter = vec3.note('Geometry centre');
    f.centerOfMass = vec3.note('Centre of mass');
    f.invInertia = mat3.note('Inverse inertia tensor');
    f.autoCenter = bool.note('Auto centre');
    f.lockAutoCenter = bool.note('Lock auto centre');
    f.canOcclude = bool.note('Can occlude');
    f.canBeOccluded = bool.note('Can be occluded');
    if (v >= 73 || isDayZ(v)) f.aiCovers = bool.note('AI covers (v73+, and DayZ 53/54)');
    if (isDayZ(v)) f.dayzUnknownFloat = f32.note('DayZ-only float (meaning unknown)');
    if (v >= 42) {
      f.htMin = f32.note('Thermal: minimum half-time');
      f.htMax = f32.note('Thermal: maximum half-time');
      f.afMax = f32.note('Thermal: maximum alive factor');
      f.mfMax = f32.note('Thermal: maximum movement factor');
    }
    if (v >= 43) {
      f.mFact = f32.note('Thermal: metabolism factor');
      f.tBody = f32.note('Thermal: body temperature');
    }
    if (v >= 33) f.forceNotAlphaModel = bool.note('Force not alpha model');
    if (v >= 37) {
      f.sbSource = i32.note('Shadow buffer source');
      f.preferShadowVolume = bool.note('Prefer shadow volume');
    }
    if (v >= 48) f.shadowOffset = f32.note('Shadow offset (v48+)');
    f.animated = bool.note('Animated');
    return struct('ModelInfo', f);
  });
}

/** ModelInfo after the mass array. */
export function modelInfoTail(v: number, lods: number): Struct<FieldMap> {
  return cached(`mi-tail-${v}-${lods}`, () => {
    const f: FieldMap = {
      mass: f32.note('Mass').unit('kg'),
      invMass: f32.note('1 / mass'),
      armor: f32.note('Armor'),
      invArmor: f32.note('1 / armor'),
    };
    const dayz = isDayZ(v);
    if (v >= 72) f.explosionShielding = f32.note('Explosion shielding (v72+)');
    if (v >= 53 && !dayz) f.geometrySimple = u8.note('Index of the simple geometry LOD (v53+, 255 = none)');
    if (v >= 54 && !dayz) f.geometryPhys = u8.note('Index of the PhysX geometry LOD (v54+, 255 = none)');
    Object.assign(f, {
      memory: u8.note('Index of the Memory LOD (255 = none)'),
      geometry: u8.note('Index of the Geometry LOD'),
    });
    if (v === 54) f.dayzIndex54 = u8.note('DayZ v54: one more LOD index (meaning unknown, 255 in every file seen)');
    Object.assign(f, {
      geometryFire: u8.note('Index of the Fire Geometry LOD'),
      geometryView: u8.note('Index of the View Geometry LOD'),
      geometryViewPilot: u8.note('Index of the View Pilot Geometry LOD'),
      geometryViewGunner: u8.note('Index of the View Gunner Geometry LOD'),
      unknownIndex: i8.note('Unknown LOD index (usually -1)'),
      geometryViewCargo: u8.note('Index of the View Cargo Geometry LOD'),
      landContact: u8.note('Index of the LandContact LOD'),
      roadway: u8.note('Index of the Roadway LOD'),
      paths: u8.note('Index of the Paths LOD'),
      hitpoints: u8.note('Index of the HitPoints LOD'),
      minShadow: u32.note('First shadow-volume LOD'),
    });
    if (v >= 38) f.canBlend = bool.note('Can blend');
    f.className = cstring().note('Named property class');
    f.damage = cstring().note('Named property damage');
    f.frequent = bool.note('Frequent');
    if (v >= 31) f.unused31 = u32.note('Unused');
    if (v >= 57) {
      f.preferredShadowVolumeLod = arrayOf(i32, lods).note('Preferred shadow volume LOD per LOD (v57+)');
      f.preferredShadowBufferLod = arrayOf(i32, lods).note('Preferred shadow buffer LOD per LOD (v57+)');
      f.preferredShadowBufferLodVis = arrayOf(i32, lods).note('Preferred visible shadow buffer LOD per LOD (v57+)');
    }
    return struct('ModelInfo', f);
  });
}

/** LodFaceDefaults: per-LOD summary stored for LODs that are not permanent (wiki: UseDefault false). */
export function loadableLodInfo(v: number): Struct<FieldMap> {
  return cached(`lli-${v}`, () => {
    const f: FieldMap = {
      faceCount: i32.note('Number of faces'),
      color: u32.note('Colour (packed ARGB)'),
      special: i32.note('Special flags'),
      orHints: u32.note('OR of clip hints'),
    };
    if (v >= 39) f.hasSkeleton = bool.note('Has skeleton');
    if (v >= 51) {
      f.vertexCount = i32.note('Number of vertices (v51+)');
      f.faceArea = f32.note('Face area (v51+)');
    }
    return struct('LodFaceDefaults', f);
  });
}

export function proxyStruct(v: number): Struct<FieldMap> {
  return cached(`proxy-${v}`, () => {
    const f: FieldMap = {
      name: cstring().note('P3dProxyName: model path of the proxy'),
      transform: mat4x3.note('Orientation (3x3, rows) then position'),
      sequenceId: i32.note('Proxy sequence number'),
      namedSelectionIndex: i32.note('Index of the proxy selection'),
      boneIndex: i32.note('Skeleton bone (-1 none)'),
    };
    if (v >= 40) f.sectionIndex = i32.note('Section index (v40+)');
    return struct('LodProxy', f);
  });
}

/** LOD fields between the clip/vertex count and the texture list. */
export function lodBounds(v: number): Struct<FieldMap> {
  return cached(`lodb-${v}`, () => {
    const f: FieldMap = {};
    if (v >= 50) f.vertexCount = u32.note('LodPointCount (v50+)');
    if (v >= 51) f.faceArea = f32.note('Face area (v51+)');
    Object.assign(f, {
      orHints: i32.note('OR of face clip flags'),
      andHints: i32.note('AND of face clip flags'),
      bMin: vec3.note('MinPos'),
      bMax: vec3.note('MaxPos'),
      bCenter: vec3.note('AutoCenterPos'),
      bRadius: f32.note('Sphere radius'),
    });
    return struct('LodBounds', f);
  });
}

export const sectionHead = struct('LodSection', {
  faceLowerIndex: i32.note('Byte offset of the first face of the section in the face table'),
  faceUpperIndex: i32.note('Byte offset past the last face of the section'),
  minBoneIndex: i32.note('First bone used'),
  bonesCount: i32.note('Number of bones used'),
  unused: u32.note('Unused'),
  textureIndex: i16.note('Texture index (-1 none)'),
  special: u32.note('Face flags of the section'),
  materialIndex: i32.note('Index into the LOD materials (-1: material named below)'),
});

export function materialHead(): Struct<FieldMap> {
  return cached('mat-head', () =>
    struct('LodMaterial', {
      name: cstring().note('RvMatName: path of the .rvmat'),
      type: u32.note('Material version (9 Arma, 10 VBS2, 11 Arrowhead and later)'),
      emissive: rgba.note('Emissive'),
      ambient: rgba.note('Ambient'),
      diffuse: rgba.note('Diffuse'),
      forcedDiffuse: rgba.note('Forced diffuse'),
      specular: rgba.note('Specular'),
      specular2: rgba.note('Specular (copy)'),
      specularPower: f32.note('Specular power'),
    }),
  );
}

/** DayZ material types carry more floats after the specular power (meaning unknown): 16 -> 14, 20 -> 26. */
export function materialExtraCount(type: number): number {
  if (type === 16) return 14;
  if (type === 20) return 26;
  return type > 11 ? -1 : 0;
}

export function materialExtra(type: number): Struct<FieldMap> {
  return cached(`mat-extra-${type}`, () =>
    struct('LodMaterial.extra', { values: floats(Math.max(0, materialExtraCount(type))).note('DayZ material floats (meaning unknown)') }),
  );
}

export function materialShaders(): Struct<FieldMap> {
  return cached('mat-shaders', () =>
    struct('LodMaterial', {
      pixelShader: u32.note('Pixel shader id'),
      vertexShader: u32.note('Vertex shader id'),
      mainLight: u32.note('Main light (wiki: Arma1UnKnownBool)'),
      fogMode: u32.note('Fog mode (wiki: Arma1AnIndex)'),
    }),
  );
}

export const stageTransformStruct = struct('LodStageTransform', {
  uvSource: u32.note('UV source (0 none, 1 tex, 2.. tex2..)'),
  transform: mat4x3.note('Texture transform (3x3 then offset)'),
});

export const animationAxis = struct('AnimBones.axis', { axisPos: vec3.note('Axis position'), axisDir: vec3.note('Axis direction') });

export { bool, cstring, i32, u8, u32 };
