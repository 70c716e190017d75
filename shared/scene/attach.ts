/**
 * Standalone animation files (Grimrock `.animation`, Unigine `.anim`) played on a model. Their
 * tracks name the bone or node they drive (`AnimationTrack.targetName`); a model takes a clip when
 * those names are its bones' or nodes' names. The editor's preview, its picker of matching
 * animations and the glTF export (`lodsmith convert --anim` and the editor's export, one function:
 * {@link modelGltfOptions}) all bind by these rules.
 */
import type { AnimationClip, AnimationTrack, Scene } from './scene.ts';
import type { Problem } from '../model/problems.ts';

/** The names an animation's tracks drive, in first-use order. */
export function trackTargets(clips: readonly AnimationClip[]): string[] {
  const seen = new Set<string>();
  for (const c of clips) for (const t of c.tracks) if (t.targetName !== undefined) seen.add(t.targetName);
  return [...seen];
}

/** The names a model offers to animations: its bones, then its nodes. */
export function targetNames(model: Scene): Set<string> {
  return new Set([...(model.skeleton?.bones.map((b) => b.name) ?? []), ...model.nodes.map((n) => n.name)]);
}

/** How many of the animation's target names the model has (see {@link bindClips} for case). */
export function matchAnimation(model: Scene, clips: readonly AnimationClip[]): { matched: number; total: number } {
  const names = targetNames(model);
  const lower = new Set([...names].map((n) => n.toLowerCase()));
  const targets = trackTargets(clips);
  return { matched: targets.filter((t) => names.has(t) || lower.has(t.toLowerCase())).length, total: targets.length };
}

/**
 * Clips of an animation file re-addressed to the model's bones (by name, else its nodes): each
 * track's `bone` becomes the index of the bone (or node, `target: 'node'`) of that name. Tracks
 * naming nothing in the model are left out; a clip left with no track is dropped.
 */
export function bindClips(model: Scene, clips: readonly AnimationClip[]): AnimationClip[] {
  const bones = new Map<string, number>();
  model.skeleton?.bones.forEach((b, i) => bones.has(b.name) || bones.set(b.name, i));
  const nodes = new Map<string, number>();
  model.nodes.forEach((n, i) => nodes.has(n.name) || nodes.set(n.name, i));
  // A name the model lacks as written may match without case (Arma's bones: `Pelvis` in an RTM,
  // `pelvis` in the ODOL skeleton); an exact match always wins.
  const bonesLower = new Map<string, number>();
  model.skeleton?.bones.forEach((b, i) => bonesLower.has(b.name.toLowerCase()) || bonesLower.set(b.name.toLowerCase(), i));
  const out: AnimationClip[] = [];
  for (const c of clips) {
    const tracks = c.tracks.flatMap((t): AnimationTrack[] => {
      const name = t.targetName;
      if (name === undefined) return [];
      const b = bones.get(name) ?? (nodes.has(name) ? undefined : bonesLower.get(name.toLowerCase()));
      if (b !== undefined) return [{ ...t, bone: b, target: 'bone' }];
      const n = nodes.get(name);
      if (n !== undefined) return [{ ...t, bone: n, target: 'node' }];
      return [];
    });
    if (tracks.length) out.push({ ...c, tracks });
  }
  return out;
}

/**
 * An animation file shown on the skeleton of a model that has its node names (`model`, named
 * `fileName`): the model's bones and nodes without its meshes, the clips bound to them.
 */
export function animationOnRig(anim: Scene, model: Scene, fileName: string): Scene {
  const nodes = model.nodes.map(({ mesh: _mesh, ...n }) => n);
  const rig: Scene = { nodes, meshes: [], materials: [], clips: [], skeletonFrom: fileName };
  if (model.skeleton) rig.skeleton = model.skeleton;
  if (model.upAxis) rig.upAxis = model.upAxis;
  rig.clips = bindClips(model, anim.clips);
  return rig;
}

/**
 * How an attached file's clip is listed on the timeline: its name and the file (`walk
 * (ogre_walk.animation)`), or the file alone when the clip has no name (Grimrock clips rarely do).
 */
export function attachedClipName(clip: string, fileName: string): string {
  return clip ? `${clip} (${fileName})` : fileName;
}

/** True when a timeline clip name is one {@link attachedClipName} gave a clip of `fileName`. */
export function isAttachedClipOf(name: string, fileName: string): boolean {
  return name === fileName || name.endsWith(` (${fileName})`);
}

/** The clips of a decoded animation file, or an error message when it holds none. */
export function animationClips(scene: Scene, label: string): AnimationClip[] {
  if (scene.clips.length === 0) throw new Error(`${label} file holds no animation`);
  return scene.clips;
}

/**
 * Options of the glTF export of a model with animation files attached: the one recipe the CLI's
 * `convert --anim` and the editor's export share (`sceneToGltf(scene, modelGltfOptions(...))`).
 */
export function modelGltfOptions(scene: Scene, extraClips: readonly AnimationClip[], up?: 'y' | 'z'): { extraClips: readonly AnimationClip[]; generator: string; upAxis: 'y' | 'z' } {
  return { extraClips, generator: 'LodSmith', upAxis: up ?? scene.upAxis ?? 'y' };
}

/**
 * What an animation file needs to know of the model it plays on: the model's skeleton as bone and
 * parent names (formats whose poses are model-space or parent-relative matrices, Arma RTM, turn
 * them into bone motion with it; the others ignore it), and where the model's own space has its
 * origin when the scene's positions are relative to another point (Scene.modelOrigin: an
 * auto-centred ODOL). Passed to the animation codec's toScene.
 */
export function animationSceneOptions(model: Scene): { skeleton?: { name: string; parent: string }[]; origin?: [number, number, number] } {
  const bones = model.skeleton?.bones ?? [];
  return {
    ...(bones.length ? { skeleton: bones.map((b) => ({ name: b.name, parent: bones[b.parent]?.name ?? '' })) } : {}),
    ...(model.modelOrigin ? { origin: model.modelOrigin } : {}),
  };
}

/**
 * Bones an animation names that the model lacks (the game logs "Bone X doesn't exist in
 * skeleton" for each), and skeleton bones it never moves, as warnings. Names compare without case,
 * as {@link bindClips} binds them.
 */
export function bindingProblems(model: Scene, clips: readonly AnimationClip[], animName: string, modelName: string): Problem[] {
  const names = new Set([...targetNames(model)].map((n) => n.toLowerCase()));
  const targets = trackTargets(clips);
  const driven = new Set(targets.map((t) => t.toLowerCase()));
  const out: Problem[] = [];
  for (const t of targets) {
    if (!names.has(t.toLowerCase())) out.push({ severity: 'warning', message: `bone "${t}" of ${animName} does not exist in the skeleton of ${modelName}`, where: animName });
  }
  // A bone named `#...` is a stand-in the model made (an MLOD's bone for unskinned points), not one of its own.
  const still = (model.skeleton?.bones ?? []).map((b) => b.name).filter((b) => !b.startsWith('#') && !driven.has(b.toLowerCase()));
  if (still.length && model.skeleton?.bones.length) {
    const shown = still.slice(0, 12).join(', ') + (still.length > 12 ? `, ... (${still.length - 12} more)` : '');
    out.push({ severity: 'warning', message: `${still.length} bone(s) of ${modelName} are never moved by ${animName}: ${shown}`, where: animName });
  }
  return out;
}
