/**
 * The one error an import throws for input it cannot take: what is wrong, and where in the glTF
 * (a JSON path such as `meshes[2]/primitives[0]`, or a node name) so the modder can find it in
 * Blender's outliner or a JSON viewer.
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly detail: string;
  /** glTF path (`nodes[3] "Arm"`, `meshes[0]/primitives[1]`), empty for the file as a whole. */
  readonly gltfPath: string;
  constructor(detail: string, gltfPath: string) {
    super(gltfPath ? `${detail} (glTF ${gltfPath})` : detail);
    this.detail = detail;
    this.gltfPath = gltfPath;
  }
}

export function isImportError(e: unknown): e is ImportError {
  return e instanceof ImportError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ImportError');
}
