/**
 * The format-neutral scene every codec maps to. The preview (three.js) and the glTF exporter read
 * only this. Conventions:
 * - Right-handed, Y up, as glTF and three.js. A codec whose source is left-handed (P3D) or Z-up
 *   converts in its `toScene` and says so in its notes. Units are the source's (no scaling).
 *   The exception is a codec that keeps the file's own axes because the file does not say which
 *   way is up (LODka): it reports its best guess in `upAxis`, and the preview and the glTF export
 *   turn the model upright with a root rotation (see `up-axis.ts`); the data itself is untouched.
 * - Matrices are 16 numbers, column-major (glTF / three.js order).
 * - Bulk arrays are typed arrays.
 */
import type { NodePath } from '../model/path.ts';

export type Mat4 = number[];

/** The axis of the data that points up. */
export type UpAxis = 'y' | 'z';

export interface Scene {
  /** Nodes form the hierarchy; roots have parent -1. A node may place one mesh. */
  nodes: SceneNode[];
  meshes: SceneMesh[];
  materials: SceneMaterial[];
  skeleton?: Skeleton;
  clips: AnimationClip[];
  /** Light schemes (LODka LGS1): the preview lights the model with the chosen one. */
  lightSchemes?: LightScheme[];
  /** Colliders drawn as wireframes (LODka COL1, P3D geometry helpers...). */
  colliders?: SceneCollider[];
  /**
   * Places where the game draws another model (P3D proxies). Not geometry: the preview shows a
   * labelled marker, and the placeholder faces the file stores for each one only on request;
   * the glTF export leaves them out, as the game does.
   */
  proxies?: SceneProxy[];
  /**
   * Which axis of the data points up, as far as the codec knows (absent: 'y'). 'z' means the
   * data is Z-up and viewers put the rotation of `upAxisMatrix` (up-axis.ts) above the model root.
   */
  upAxis?: UpAxis;
  /**
   * An animation file shown on its own: the model file beside it whose node hierarchy shapes the
   * skeleton (the animation stores local transforms per node name, not who is whose parent).
   */
  skeletonFrom?: string;
  /**
   * Where the origin of the model's own space lies in this scene's coordinates, when the file
   * stores positions relative to another point: a binarized P3D built with auto-centring keeps
   * every position relative to its bounding centre, while the animations made for the model (Arma
   * RTM: model-space matrices) use the space it was built in. Absent: the scene's origin.
   * Animation files take it through SceneOptions.origin (attach.ts, animationSceneOptions).
   */
  modelOrigin?: [number, number, number];
  /** Axis-aligned bounds of all geometry, if known. */
  bounds?: { min: [number, number, number]; max: [number, number, number] };
  /**
   * What could not be drawn and was left out, one sentence each. A scene is built for every file
   * that decoded: a damaged part is skipped with a warning, never thrown.
   */
  warnings?: string[];
}

export interface SceneNode {
  name: string;
  parent: number;
  /** Local transform, column-major. */
  matrix: Mat4;
  mesh?: number;
  visible?: boolean;
  /** Where this node lives in the document tree (click in 3D selects it in the tree). */
  source?: NodePath;
}

export interface SceneMesh {
  name: string;
  /** xyz per vertex */
  positions: Float32Array;
  /** xyz per vertex, when the source has per-vertex normals (unwelded if needed). */
  normals?: Float32Array;
  /**
   * uv per vertex, one array per UV set, in glTF's convention: (0, 0) is the top-left corner of
   * the image, v grows downwards. Direct3D-style sources (P3D, Grimrock, Unigine) store that
   * already; a codec whose source puts v = 0 at the bottom row (OpenGL-style: LODka, written by
   * GLScene) turns v over in its `toScene`, and its glTF import turns it back.
   */
  uvs: Float32Array[];
  /** rgba per vertex, 0..1 */
  colors?: Float32Array;
  /** Triangle list. */
  indices: Uint32Array;
  /** Ranges of `indices` drawn with one material (start and count in indices). */
  groups: { start: number; count: number; material: number }[];
  /** Four joints and weights per vertex, indices into skeleton.bones. */
  skin?: { joints: Uint16Array; weights: Float32Array };
  /** Morph targets: absolute positions per target. */
  morphs?: { name: string; positions: Float32Array }[];
  source?: NodePath;
}

export interface SceneMaterial {
  name: string;
  /** Base colour RGBA 0..1 */
  color: [number, number, number, number];
  emissive?: [number, number, number];
  specular?: [number, number, number];
  /** 0..128 as OpenGL */
  shininess?: number;
  /** Texture file name or path as written in the model. */
  texture?: string;
  /** Embedded texture image bytes (e.g. LODka TXTR), if any. */
  textureData?: Uint8Array;
  /** P3D: the material file (.rvmat) as written; its colour stage is the texture when the face names none. */
  rvmat?: string;
  blending?: 'opaque' | 'blend' | 'additive' | 'alphaTest' | 'modulate';
  doubleSided?: boolean;
  source?: NodePath;
}

export interface Skeleton {
  bones: Bone[];
}
export interface Bone {
  name: string;
  parent: number;
  /** Local bind transform, column-major. */
  matrix: Mat4;
  /** Inverse bind matrix (model space -> bone space), if the source stores one. */
  inverseBind?: Mat4;
}

export interface AnimationClip {
  name: string;
  /** Seconds. */
  duration: number;
  frames: number;
  tracks: AnimationTrack[];
  /** Morph weights per frame, for sources with morph animation. */
  source?: NodePath;
}
export interface AnimationTrack {
  /** Index into skeleton.bones, or into nodes when `target` is 'node'. */
  bone: number;
  /**
   * Name of the bone or node the track drives. Standalone animation files (Grimrock
   * `.animation`, Unigine `.anim`) bind by name when combined with a model.
   */
  targetName?: string;
  target?: 'bone' | 'node';
  /** Key times in seconds. */
  times: Float32Array;
  translations?: Float32Array;
  /** xyzw quaternions */
  rotations?: Float32Array;
  scales?: Float32Array;
}

export interface LightScheme {
  name: string;
  lights: SceneLight[];
  source?: NodePath;
}
export interface SceneLight {
  enabled: boolean;
  type: 'spot' | 'point' | 'directional';
  position: [number, number, number];
  direction: [number, number, number];
  ambient: [number, number, number, number];
  diffuse: [number, number, number, number];
  specular: [number, number, number, number];
  /** Degrees; 180 means all directions. */
  cutoff: number;
  exponent: number;
  attenuation: [constant: number, linear: number, quadratic: number];
}

export interface SceneCollider {
  name: string;
  set?: string;
  shape: 'sphere' | 'capsule' | 'cylinder' | 'box';
  /** Bone the collider rides on, -1 for none. */
  bone: number;
  matrix: Mat4;
  visible?: boolean;
  source?: NodePath;
}

export interface SceneProxy {
  /** The proxied model's path as written in the file (`\ca\weapons\ak74`). */
  name: string;
  /** Proxy number among proxies of the same model (`.001` in MLOD selection names), if any. */
  index?: number;
  /** Placement in scene axes, column-major; the marker is drawn in this frame. */
  matrix: Mat4;
  /**
   * The skeleton bone the proxied model moves with when the model is animated (an index into
   * `skeleton.bones`; a binarized P3D names one per proxy: a character's helmet moves with its
   * head, its pistol with its right hand). `matrix` is its place in the rest pose.
   */
  bone?: number;
  /**
   * The placeholder triangle(s) the file stores for this proxy, xyz per corner in scene axes
   * (three corners per triangle). The game never draws them; the preview may on request.
   */
  placeholder?: Float32Array;
  source?: NodePath;
}

export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function emptyScene(): Scene {
  return { nodes: [], meshes: [], materials: [], clips: [] };
}
