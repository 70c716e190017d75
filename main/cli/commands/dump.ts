/** `lodsmith dump FILE`: the whole decoded tree as JSON, streamed. */
import { EXIT_OK } from '../fail.ts';
import type { CliIO } from '../io.ts';
import { streamJson } from '../json-stream.ts';
import { loadModel } from '../load.ts';

export async function runDump(file: string, io: CliIO, maxMemory?: number): Promise<number> {
  const { codec, doc, bytes } = await loadModel(file, io.cwd, maxMemory);
  await streamJson({ file, format: codec.id, bytes: bytes.length, document: doc }, io.stdout);
  return EXIT_OK;
}
