/** `lodsmith import IN.gltf|IN.glb OUT`: a glTF model into any format LodSmith writes. */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { FORMAT_CATALOG } from '../../../shared/formats/catalog.ts';
import { registerFormat, type FormatCodec } from '../../../shared/formats/registry.ts';
import { externalUris, importGltf, loadImportTargets, type GltfInput } from '../../../shared/import/index.ts';
import { atomicWriteFile } from '../../documents/atomic-save.ts';
import { CliFailure, EXIT_OK, FileError } from '../fail.ts';
import { writeJson, writeLines, type CliIO } from '../io.ts';
import { readInput, MAX_INPUT_BYTES } from '../load.ts';
import { humanBytes } from '../text.ts';

export interface ImportOptions {
  /** Format version (`.mesh`: ms14, ms11, ms10, mr02; `.animation`: 1, 2). */
  version?: string;
  /** Animation to import, by name or index. */
  anim?: string;
  limitInfluences?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Reads a `.gltf` or `.glb` with the external buffers a `.gltf` names (relative to it). */
export async function readGltfInput(file: string, cwd: string): Promise<GltfInput> {
  const full = resolve(cwd, file);
  const bytes = await readInput(file, cwd);
  const isGlb = bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
  if (isGlb) return { kind: 'glb', bytes };
  if (extname(file).toLowerCase() === '.glb') throw new CliFailure('not a GLB file: it does not start with "glTF"');
  const resources: Record<string, Uint8Array> = {};
  let total = bytes.length;
  for (const uri of externalUris(bytes)) {
    let path: string;
    try {
      path = resolve(dirname(full), decodeURIComponent(uri));
    } catch {
      throw new CliFailure(`buffer URI "${uri}" is not a valid file name`);
    }
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile()) throw new CliFailure(`the buffer file "${uri}" it names is missing`);
    total += st.size;
    if (total > MAX_INPUT_BYTES) throw new CliFailure(`its buffers add up to more than ${MAX_INPUT_BYTES} bytes`);
    const b = await readFile(path);
    resources[uri] = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  return { kind: 'gltf', text: bytes, resources };
}

export async function runImport(input: string, output: string, opts: ImportOptions, io: CliIO): Promise<number> {
  const inExt = extname(input).toLowerCase();
  if (inExt !== '.gltf' && inExt !== '.glb') throw new FileError(input, new CliFailure('the input must be a .gltf or .glb file'));
  const outExt = extname(output).toLowerCase();
  // Only the codecs of the output's extension are loaded (as other commands load only the one they
  // read); the one whose import writer makes that extension writes the file.
  let codec: FormatCodec | undefined;
  for (const entry of FORMAT_CATALOG.filter((e) => e.extensions.includes(outExt))) {
    const c = await entry.load();
    if (c.gltf?.extension === outExt) {
      codec = c;
      break;
    }
  }
  if (!codec) {
    const targets = await loadImportTargets();
    throw new FileError(output, new CliFailure(`the output must end in ${targets.map((t) => t.extension).join(', ')}`));
  }
  registerFormat(codec);
  const format = codec.id;
  let result;
  try {
    const gltf = await readGltfInput(input, io.cwd);
    result = await importGltf(gltf, format, { version: opts.version, anim: opts.anim, limitInfluences: opts.limitInfluences });
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(input, e);
  }
  try {
    await atomicWriteFile(resolve(io.cwd, output), result.bytes, { backup: false });
  } catch (e) {
    throw new FileError(output, new CliFailure((e as Error).message));
  }
  const info = codec.info(codec.decode(result.bytes, { fileName: basename(output) }), result.bytes.length);
  if (opts.json) {
    const out = {
      input, output, format, version: info.version, bytes: result.bytes.length, warnings: result.warnings,
      meshes: info.meshes, materials: info.materials, bones: info.bones, animations: info.animations,
    };
    await writeJson(io.stdout, out);
    // Warnings go to stderr too: a pipeline reading stdout still sees them on the terminal.
    if (!opts.quiet) await writeLines(io.stderr, result.warnings.map((w) => `warning: ${w}`));
    return EXIT_OK;
  }
  if (!opts.quiet) {
    await writeLines(io.stderr, result.warnings.map((w) => `warning: ${w}`));
    const tris = info.meshes.reduce((s, m) => s + m.triangles, 0);
    const parts = [
      `${info.meshes.length} mesh${info.meshes.length === 1 ? '' : 'es'}`, `${tris} triangle${tris === 1 ? '' : 's'}`,
      `${info.materials.length} material${info.materials.length === 1 ? '' : 's'}`, `${info.bones.length} bone${info.bones.length === 1 ? '' : 's'}`,
      `${info.animations.length} animation${info.animations.length === 1 ? '' : 's'}`,
    ];
    await writeLines(io.stdout, [`wrote ${output} (${codec.label} ${info.version}, ${humanBytes(result.bytes.length)}): ${parts.join(', ')}`]);
  }
  return EXIT_OK;
}
