/** Development mode: the in-memory fake API over files fetched from the dev server. */
import { allFormats } from '../../shared/formats/index.ts';
import { createFakeApi } from './fake-api.ts';
import { setApi } from './index.ts';

export async function connectDevFake(names: string[]): Promise<void> {
  const files = new Map<string, Uint8Array>();
  for (const n of names) {
    const r = await fetch(`./${n}`);
    if (r.ok) files.set(n, new Uint8Array(await r.arrayBuffer()));
  }
  setApi(createFakeApi({ codecs: allFormats(), files, sample: names[0] }));
}
