/**
 * Questions the dedicated editors ask a document beyond the tree and the inspector (`doc:query`):
 * pages of bulk arrays, what to highlight in the viewport, and the P3D editors' views (LODs,
 * face groups, proxies, named selections). Some answers are edit commands the renderer then
 * sends through `doc:edit` unchanged, so every change still goes through the one command path
 * (checkEdit, undo, dirty tracking): the codec plans the command, the service applies it.
 */
import type { EditCommand } from './commands.ts';
import type { NodePath } from './path.ts';

export type EditorQuery =
  /** A page of the table of the numeric array at `path` (rows `start` .. `start + count`). */
  | { kind: 'array'; path: NodePath; start: number; count: number }
  /** What to mark in the viewport for the node at `path` (a named selection, a proxy, an array row). */
  | { kind: 'highlight'; path: NodePath; row?: number }
  /** P3D: every LOD with its resolution name. */
  | { kind: 'p3d-lods' }
  /** P3D: the face groups of one LOD (texture + material per group). */
  | { kind: 'p3d-groups'; lod: number }
  /** P3D: the proxies of one LOD. */
  | { kind: 'p3d-proxies'; lod: number }
  /** P3D: the named selections of one LOD. */
  | { kind: 'p3d-selections'; lod: number }
  /** P3D: what to mark in the viewport for one face group. */
  | { kind: 'p3d-group-highlight'; lod: number; group: string }
  /** P3D: the command that gives one face group another texture or material path. */
  | { kind: 'p3d-group-path'; lod: number; group: string; field: 'texture' | 'material'; value: string }
  /** P3D: the command that changes a proxy's model path, position or orientation. */
  | { kind: 'p3d-proxy-edit'; lod: number; proxy: number; path?: string; position?: number[]; axes?: number[] }
  /** P3D: the command that adds a proxy (model path `path`, default `proxy`) to a LOD. */
  | { kind: 'p3d-proxy-add'; lod: number; path?: string }
  /** P3D: the command that deletes a proxy (MLOD: its selection and triangle; ODOL: its record). */
  | { kind: 'p3d-proxy-delete'; lod: number; proxy: number }
  /** P3D: the command that moves a proxy to LOD `to` of the same model. */
  | { kind: 'p3d-proxy-lod'; lod: number; proxy: number; to: number }
  /**
   * Find and replace paths (any format): every texture, material and proxy path starting with
   * `from` (shared/model/repath.ts) and the one command (a batch: one undo step) that makes them
   * start with `to`. Answer: {@link RepathAnswer}.
   */
  | { kind: 'repath'; from: string; to: string };

/** The answer to a `repath` query: what would change, and the command that changes it (null: nothing). */
export interface RepathAnswer {
  changes: { where: string; before: string; after: string }[];
  command: EditCommand | null;
}

/** Geometry to mark in the viewport, in scene space (the scene's axes, not the file's). */
export interface Highlight {
  /** xyz per marked point. */
  points?: Float32Array;
  /** xyz per corner, three corners per marked triangle. */
  triangles?: Float32Array;
  /** xyz per end, two ends per line (proxy axes, normals). */
  lines?: Float32Array;
  /** What is marked, for the status line ("12 points, 4 faces"). */
  label?: string;
}

/** One LOD as the P3D editors list it. */
export interface P3dLodEntry {
  index: number;
  resolution: number;
  /** The canonical name (`resolutionName`), what `--lod` and the scene accept. */
  name: string;
  /** The name modders use (`Fire Geometry`, `Shadow Volume 0`, `Visual 1.000`). */
  label: string;
  kind: string;
  faces: number;
  points: number;
}

/** A face group: faces drawn with one texture and one material. */
export interface P3dFaceGroup {
  /** Stable key for edits (`p3d-group-path`). */
  key: string;
  texture: string;
  material: string;
  faces: number;
  /** Whether the format lets this group's texture / material path be changed. */
  textureEditable: boolean;
  materialEditable: boolean;
  /** Other groups that share the stored path (editing it changes them too), when the format shares paths. */
  textureShared?: number;
  materialShared?: number;
  /** Node to select for this group (a section, or the LOD's faces). */
  source: NodePath;
}

/** A proxy: a model placed at a position with an orientation. */
export interface P3dProxy {
  index: number;
  /** The model path (`\a3\data_f\proxies\lamp`). */
  path: string;
  /** ODOL: the proxy record's name; MLOD: the selection name (`proxy:...\lamp.001`). */
  name: string;
  /** Position in the model's own (P3D) axes. */
  position: [number, number, number];
  /** The proxy's x, y and z axes in model axes, nine numbers. */
  axes: number[];
  /** Node to select for this proxy. */
  source: NodePath;
  editable: boolean;
}

/** A named selection of one LOD. */
export interface P3dSelection {
  index: number;
  name: string;
  points: number;
  faces: number;
  source: NodePath;
}
