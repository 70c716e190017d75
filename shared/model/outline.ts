import type { Span } from '../binary/reader.ts';
import type { FieldInfo } from '../schema/schema.ts';
import type { NodePath } from './path.ts';

/** Icon names the tree knows; formats pick the closest. */
export type NodeKind =
  | 'file' | 'container' | 'info' | 'skeleton' | 'bone' | 'animation' | 'materials' | 'material'
  | 'textures' | 'texture' | 'shader' | 'meshes' | 'mesh' | 'facegroup' | 'morph' | 'physics'
  | 'lights' | 'light' | 'proxies' | 'proxy' | 'colliders' | 'collider' | 'image' | 'lod'
  | 'selection' | 'property' | 'node' | 'surface' | 'raw' | 'array' | 'record';

/** A node of the structure tree (sent to the renderer; no typed arrays, no raw bytes). */
export interface OutlineNode {
  /** Document path of the node. */
  path: NodePath;
  /** Short display name (`MSH1[2]`, `Geometry`, `bone_head`...); also the segment used in node paths. */
  name: string;
  /** Longer label (mesh name, material name...). */
  label?: string;
  kind: NodeKind;
  /** Element count shown as a badge (meshes in a list, faces in a mesh...). */
  count?: number;
  span?: Span;
  children?: OutlineNode[];
  /** What the tree's context menu may offer here. */
  actions?: NodeActions;
}

export interface NodeActions {
  /** Child kinds that can be added ("MSH1", "material", "proxy item"...). */
  add?: string[];
  remove?: boolean;
  duplicate?: boolean;
  move?: boolean;
  /** Raw bytes of this chunk can be exported / replaced. */
  bytes?: boolean;
}

/** A field shown in the inspector. */
export interface InspectField extends FieldInfo {
  /** Document path of the value (for SetField commands). */
  path: NodePath;
  /** JSON-safe value (typed arrays become summaries). */
  value: unknown;
  span?: Span;
}

export interface Inspection {
  title: string;
  fields: InspectField[];
}
