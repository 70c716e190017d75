/**
 * `lodsmith texture IN OUT`: any texture (PAA/PAC, DDS, TGA, PNG, JPEG, BMP) to PNG (`--mip N`),
 * or a picture to a new PAA (`--format dxt1|dxt5|argb8888`; default DXT1 when opaque, DXT5 with
 * alpha).
 */
import { extname, resolve } from 'node:path';
import { withBudget } from '../../../shared/binary/budget.ts';
import { decodeTextureMip, textureMipCount } from '../../../shared/formats/texture/index.ts';
import { createPaa, encodePaa, PAA_TYPE_LABEL, type PaaWriteFormat } from '../../../shared/formats/texture/paa.ts';
import { encodePng } from '../../../shared/formats/texture/png.ts';
import { CliFailure, EXIT_OK, FileError } from '../fail.ts';
import { writeAtomically, writeLines, type CliIO } from '../io.ts';
import { humanBytes, plural } from '../text.ts';
import { loadTexture } from '../texture-load.ts';

export interface TextureOptions {
  mip?: number;
  format?: PaaWriteFormat;
  quiet?: boolean;
  /** --max-memory: the decoding memory budget in bytes (default: the texture's own, by its declared size). */
  maxMemory?: number;
}

export async function runTexture(input: string, output: string, opts: TextureOptions, io: CliIO): Promise<number> {
  const ext = extname(output).toLowerCase();
  if (ext !== '.png' && ext !== '.paa' && ext !== '.pac') throw new CliFailure(`${output}: the output must end in .png, .paa or .pac`);
  if (ext === '.png' && opts.format) throw new CliFailure('--format is for PAA output; a PNG keeps the picture as decoded');
  if (ext !== '.png' && opts.mip !== undefined) throw new CliFailure('--mip picks the level written to a PNG; a new PAA always gets the full mip chain');
  const tex = await loadTexture(input, io.cwd, opts.maxMemory);
  const mips = textureMipCount(tex.doc);
  const mip = opts.mip ?? 0;
  if (mip >= mips) throw new CliFailure(`has ${plural(mips, 'mip level')} (0..${mips - 1}); --mip ${mip} is not one of them`);
  const picture = withBudget(tex.budget, () => decodeTextureMip(tex.doc, mip));
  let bytes: Uint8Array;
  let what: string;
  if (ext === '.png') {
    bytes = encodePng(picture);
    what = `${picture.width}x${picture.height} PNG${mips > 1 ? ` (mip ${mip} of ${mips})` : ''}`;
  } else {
    const paa = createPaa(picture, opts.format ? { format: opts.format } : {});
    bytes = encodePaa(paa);
    what = `${picture.width}x${picture.height} ${PAA_TYPE_LABEL[paa.type]} PAA, ${plural(paa.mips.length, 'mip')}`;
  }
  try {
    await writeAtomically(resolve(io.cwd, output), bytes);
  } catch (e) {
    throw new FileError(output, e);
  }
  if (!opts.quiet) await writeLines(io.stdout, [`wrote ${output} (${humanBytes(bytes.length)}): ${what}`]);
  return EXIT_OK;
}
