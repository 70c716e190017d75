/**
 * A codec loaded through the lazy catalog (the CLI's path, which never imports index.ts) decodes
 * inside the memory budget: an explicit maxMemory is honoured. Kept apart from catalog.test.ts,
 * which imports index.ts and so registers every codec before the catalog is asked.
 */
import { describe, expect, it } from 'vitest';
import { BudgetError } from '../../shared/binary/budget.ts';
import { FORMAT_CATALOG } from '../../shared/formats/catalog.ts';
import { encodeMlod } from '../../shared/formats/p3d/mlod/encode.ts';
import { buildSampleMlod } from '../../scripts/fixtures/mlod.ts';

describe('catalog codecs and the decoding budget', () => {
  it('a codec from the catalog refuses to decode past maxMemory and decodes within it', async () => {
    const bytes = encodeMlod(buildSampleMlod());
    const codec = await FORMAT_CATALOG.find((e) => e.id === 'p3d-mlod')!.load();
    expect(() => codec.decode(bytes, { maxMemory: 64 })).toThrow(BudgetError);
    expect(codec.decode(bytes, { maxMemory: 1 << 20 })).toHaveProperty('lods');
  });
});
