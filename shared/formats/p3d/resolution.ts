/**
 * P3D LOD resolutions: every LOD of a P3D model (MLOD and ODOL alike) is identified by one float,
 * its "resolution". Values below 1000 are visual LODs; larger, round values name the special LODs
 * (geometry, memory, shadow volumes, ...). The table follows the Bohemia Interactive community
 * wiki ("LOD", "P3D File Format - MLOD", "P3D File Format - ODOLV4x").
 *
 * Files store the value as a 32-bit float, so 1e13 arrives as 9999999827968: every lookup here
 * compares with a relative tolerance, and {@link parseResolutionName} returns the float32 value
 * (what a file would contain), so `resolutionName(parseResolutionName(n)!) === n`.
 */
import { madeOnce } from '../../binary/once.ts';

/** What a LOD is used for. */
export type ResolutionKind =
  /** A rendered LOD chosen by distance (0 to 999). */
  | 'visual'
  /** A first-person interior LOD (View Gunner / Pilot / Cargo / Commander). */
  | 'view'
  /** Shadow volumes (ShadowVolume n, ShadowVolume - View x). */
  | 'shadow'
  /** Editor-only LODs (Edit n). */
  | 'edit'
  /** Collision and occlusion LODs (Geometry, Fire Geometry, View Geometry, PhysX, ...). */
  | 'geometry'
  /** Named points for the engine (Memory). */
  | 'memory'
  /** Other engine LODs (LandContact, Roadway, Paths, HitPoints, SubParts, Wreck). */
  | 'special'
  /** A value outside every known range. */
  | 'unknown';

interface Named {
  value: number;
  name: string;
  kind: ResolutionKind;
}

/** The fixed resolutions (ranges such as ShadowVolume n and Edit n are handled in code). */
const NAMED: readonly Named[] = [
  { value: 1e3, name: 'View Gunner', kind: 'view' },
  { value: 1.1e3, name: 'View Pilot', kind: 'view' },
  { value: 1.2e3, name: 'View Cargo', kind: 'view' },
  { value: 1e13, name: 'Geometry', kind: 'geometry' },
  { value: 2e13, name: 'Geometry Buoyancy', kind: 'geometry' },
  { value: 4e13, name: 'Geometry PhysX', kind: 'geometry' },
  { value: 1e15, name: 'Memory', kind: 'memory' },
  { value: 2e15, name: 'LandContact', kind: 'special' },
  { value: 3e15, name: 'Roadway', kind: 'special' },
  { value: 4e15, name: 'Paths', kind: 'special' },
  { value: 5e15, name: 'HitPoints', kind: 'special' },
  { value: 6e15, name: 'ViewGeometry', kind: 'geometry' },
  { value: 7e15, name: 'FireGeometry', kind: 'geometry' },
  { value: 8e15, name: 'ViewCargoGeometry', kind: 'geometry' },
  { value: 9e15, name: 'ViewCargoFireGeometry', kind: 'geometry' },
  { value: 1e16, name: 'View Commander', kind: 'view' },
  { value: 1.1e16, name: 'ViewCommanderGeometry', kind: 'geometry' },
  { value: 1.2e16, name: 'ViewCommanderFireGeometry', kind: 'geometry' },
  { value: 1.3e16, name: 'ViewPilotGeometry', kind: 'geometry' },
  { value: 1.4e16, name: 'ViewPilotFireGeometry', kind: 'geometry' },
  { value: 1.5e16, name: 'ViewGunnerGeometry', kind: 'geometry' },
  { value: 1.6e16, name: 'ViewGunnerFireGeometry', kind: 'geometry' },
  { value: 1.7e16, name: 'SubParts', kind: 'special' },
  { value: 1.8e16, name: 'ShadowVolume - View Cargo', kind: 'shadow' },
  { value: 1.9e16, name: 'ShadowVolume - View Pilot', kind: 'shadow' },
  { value: 2e16, name: 'ShadowVolume - View Gunner', kind: 'shadow' },
  { value: 2.1e16, name: 'Wreck', kind: 'special' },
];

/** Range starts: [10000, 20000) are shadow volumes, [20000, 30000) edit LODs; n = value - start. */
const SHADOW_START = 1e4;
const EDIT_START = 2e4;
const EDIT_END = 3e4;

function near(a: number, b: number): boolean {
  // float32 keeps 24 bits of mantissa: 1e-6 relative covers its rounding with room to spare and
  // is still far below the 1e15 steps between special values.
  return Math.abs(a - b) <= Math.abs(b) * 1e-6;
}

function lookup(value: number): Named | undefined {
  if (value < 1e3 * 0.999) return undefined;
  for (const n of NAMED) if (near(value, n.value)) return n;
  return undefined;
}

/** A number printed without float noise: 0.15000000596 -> "0.150", 10.5 -> "10.500". */
function visualLabel(value: number): string {
  return value.toFixed(3);
}

/** Integer offset inside a range, or a 3-decimal label when the stored value is not whole. */
function rangeOffset(value: number, start: number): string {
  const off = value - start;
  const r = Math.round(off);
  return Math.abs(off - r) < 1e-3 ? String(r) : off.toFixed(3);
}

/**
 * The conventional display name of a LOD resolution: `1.000` for visual LODs, `ShadowVolume 0`,
 * `Edit 2`, `Geometry`, `Memory`, ... Unknown values print as a number (exponent form if large).
 */
export function resolutionName(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const named = lookup(value);
  if (named) return named.name;
  if (value >= 0 && value < 1e3) return visualLabel(value);
  if (value >= SHADOW_START && value < EDIT_START) return `ShadowVolume ${rangeOffset(value, SHADOW_START)}`;
  if (value >= EDIT_START && value < EDIT_END) return `Edit ${rangeOffset(value, EDIT_START)}`;
  // Resolutions between the View LODs and ShadowVolume (e.g. 1201) have no official name; keep
  // the number so the name still identifies the value.
  return value >= 1e6 ? value.toExponential() : visualLabel(value);
}

/** Names as modders say them where the wiki's spelling runs words together. */
const SPOKEN: Record<string, string> = {
  FireGeometry: 'Fire Geometry', ViewGeometry: 'View Geometry', LandContact: 'Land Contact', HitPoints: 'Hit Points',
  SubParts: 'Sub Parts', ViewCargoGeometry: 'View Cargo Geometry', ViewCargoFireGeometry: 'View Cargo Fire Geometry',
  ViewCommanderGeometry: 'View Commander Geometry', ViewCommanderFireGeometry: 'View Commander Fire Geometry',
  ViewPilotGeometry: 'View Pilot Geometry', ViewPilotFireGeometry: 'View Pilot Fire Geometry',
  ViewGunnerGeometry: 'View Gunner Geometry', ViewGunnerFireGeometry: 'View Gunner Fire Geometry',
  'ShadowVolume - View Cargo': 'Shadow Volume - View Cargo', 'ShadowVolume - View Pilot': 'Shadow Volume - View Pilot',
  'ShadowVolume - View Gunner': 'Shadow Volume - View Gunner',
};

/**
 * The LOD's name as the editor lists it, the way Object Builder users know it: `Visual 1.000`,
 * `Geometry`, `Memory`, `Fire Geometry`, `View Geometry`, `Shadow Volume 0`, `Edit 2`...
 * {@link parseResolutionName} reads every label back to its value.
 */
export function resolutionLabel(value: number): string {
  const name = resolutionName(value);
  const kind = resolutionKind(value);
  if (kind === 'visual') return `Visual ${name}`;
  if (SPOKEN[name]) return SPOKEN[name];
  if (name.startsWith('ShadowVolume ')) return `Shadow Volume ${name.slice('ShadowVolume '.length)}`;
  return name;
}

/** What a LOD with this resolution is for. */
export function resolutionKind(value: number): ResolutionKind {
  if (!Number.isFinite(value)) return 'unknown';
  const named = lookup(value);
  if (named) return named.kind;
  if (value >= 0 && value < 1e3) return 'visual';
  if (value >= SHADOW_START && value < EDIT_START) return 'shadow';
  if (value >= EDIT_START && value < EDIT_END) return 'edit';
  return 'unknown';
}

/**
 * True for LODs that are drawn with textures and materials: the distance LODs (0 to 999) and the
 * first-person View LODs. Use `resolutionKind(v) === 'visual'` for the distance LODs alone.
 */
export function isVisualResolution(value: number): boolean {
  const k = resolutionKind(value);
  return k === 'visual' || k === 'view';
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[\s_-]+/g, '');
}

// Spellings used by Object Builder's LOD menu and by older tools.
const ALIASES: readonly [string, number][] = [
  ['hitpoints', 5e15],
  ['hit-points', 5e15],
  ['landcontact', 2e15],
  ['wreckage', 2.1e16],
  ['buoyancy', 2e13],
  ['physx', 4e13],
  ['geometryphysxold', 4e13],
  ['subparts', 1.7e16],
];

/**
 * Squashed name -> value, made on first use: only parsing a name needs it, and building it when
 * the P3D code loads was ~16 kB of the young heap every `lodsmith info` on a P3D file fills
 * (docs/performance.md, "Start-up").
 */
const bySquashedName = madeOnce((): Map<string, number> => {
  const m = new Map<string, number>(NAMED.map((n) => [squash(n.name), n.value]));
  for (const [k, v] of ALIASES) m.set(squash(k), v);
  return m;
});

/**
 * The resolution value for a name as {@link resolutionName} prints it (case, spaces, dashes and
 * underscores ignored; `View - Gunner` and `Fire Geometry` are accepted). Returns the float32 value
 * a file would store, or undefined for a name it does not know.
 */
export function parseResolutionName(name: string): number | undefined {
  // `Visual 1.000` (the editor's label) and `Resolution 1.000` are the number.
  const trimmed = name.trim().replace(/^(visual|resolution|lod)\s+(?=[+-]?[\d.])/i, '');
  if (trimmed === '') return undefined;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return Math.fround(Number(trimmed));
  const s = squash(trimmed);
  const fixed = bySquashedName().get(s);
  if (fixed !== undefined) return Math.fround(fixed);
  const range = /^(shadowvolume|edit)(\d+(?:\.\d+)?)$/.exec(s);
  if (range) {
    const n = Number(range[2]);
    if (n >= 1e4) return undefined;
    return Math.fround((range[1] === 'edit' ? EDIT_START : SHADOW_START) + n);
  }
  return undefined;
}
