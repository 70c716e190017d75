/** Viewport and layout options of the active window (not part of any document). */
import { defineStore } from 'pinia';
import { markRaw, reactive, ref, shallowRef } from 'vue';
import type { Viewport } from '../viewport/viewport.ts';
import type { Scene, UpAxis } from '../../shared/scene/scene.ts';
import type { Highlight } from '../../shared/model/editor-query.ts';

export type RightTab = 'inspector' | 'materials' | 'proxies' | 'colliders' | 'lights' | 'selections';
export type BottomTab = 'problems' | 'hex' | 'history';

export const useView = defineStore('view', () => {
  const wireframe = ref(false);
  const normals = ref(false);
  const bounds = ref(false);
  const grid = ref(true);
  const skeleton = ref(false);
  const colliders = ref(true);
  /** P3D proxies as labelled markers, and (off by default: the game never draws them) their placeholder faces. */
  const proxies = ref(true);
  const placeholders = ref(false);
  /** Screenshots: draw the helpers (grid, colliders, bones, markers, selection) too, and the size of the longer side. */
  const shotHelpers = ref(false);
  const shotSize = ref(512);
  /** How surfaces are coloured: their textures (over the material colour), the material colour only, or one plain grey. */
  const shading = ref<'textured' | 'colour' | 'solid'>('textured');
  /** Mesh indices hidden by the user, per document. */
  const hiddenMeshes = reactive(new Map<string, Set<number>>());
  /** P3D: resolution name of the LOD shown, per document. */
  const lod = reactive(new Map<string, string>());
  /** Light scheme lighting the preview, per document (-1: the default studio light). */
  const lightScheme = reactive(new Map<string, number>());
  /**
   * Up axis the preview shows, per document, once the user chose one. Until then the scene's own
   * `upAxis` (the codec's guess) applies; the document's data is never rotated.
   */
  const upAxis = reactive(new Map<string, UpAxis>());
  /** Points, faces or axes marked in the viewport (a named selection, a proxy, an array row). */
  const highlight = shallowRef<Highlight | null>(null);
  const clip = ref(-1);
  const playing = ref(false);
  const time = ref(0);
  const speed = ref(1);
  const rightTab = ref<RightTab>('inspector');
  const bottomTab = ref<BottomTab>('problems');
  /** Modal file dialog of the browser host (Electron uses native dialogs). */
  const dialog = ref<'open' | 'saveAs' | 'attach' | 'modelCfg' | null>(null);
  /** The Settings dialog is open. */
  const settingsDialog = ref(false);
  /** The Find and Replace Paths dialog is open. */
  const repathDialog = ref(false);
  /** Bumped when the texture folders change: the preview loads its textures again. */
  const textureEpoch = ref(0);
  function texturesChanged(): void {
    textureEpoch.value++;
  }
  /** "New from glTF" dialog: open, with the file dropped on the window if any. */
  const gltfDialog = ref<{ file: File | null } | null>(null);
  /** The live viewport, once mounted (commands such as frame and screenshot use it). */
  const viewport = shallowRef<Viewport | null>(null);
  /** The scene last drawn for the active document, and the revision it was built from. */
  const scene = shallowRef<Scene | null>(null);
  const sceneRevision = ref('');
  function setViewport(v: Viewport | null): void {
    viewport.value = v ? markRaw(v) : null;
  }

  function hidden(docId: string): Set<number> {
    let s = hiddenMeshes.get(docId);
    if (!s) {
      s = new Set();
      hiddenMeshes.set(docId, s);
    }
    return s;
  }
  function toggleMesh(docId: string, index: number): void {
    const s = hidden(docId);
    if (s.has(index)) s.delete(index);
    else s.add(index);
  }

  function upAxisOf(docId: string, s: Scene | null | undefined): UpAxis {
    return upAxis.get(docId) ?? s?.upAxis ?? 'y';
  }
  function setUpAxis(docId: string, axis: UpAxis): void {
    upAxis.set(docId, axis);
  }
  function toggleUpAxis(docId: string, s: Scene | null | undefined): UpAxis {
    const next: UpAxis = upAxisOf(docId, s) === 'z' ? 'y' : 'z';
    upAxis.set(docId, next);
    return next;
  }

  return {
    wireframe, normals, bounds, grid, skeleton, colliders, proxies, placeholders, shotHelpers, shotSize, shading, hiddenMeshes, lod, lightScheme, upAxis, clip, playing, time, speed,
    highlight, rightTab, bottomTab, dialog, gltfDialog, settingsDialog, repathDialog, textureEpoch, texturesChanged, viewport, setViewport, scene, sceneRevision, hidden, toggleMesh,
    upAxisOf, setUpAxis, toggleUpAxis,
  };
});
