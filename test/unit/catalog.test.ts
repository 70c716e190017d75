/** The lazy format catalog (what the CLI uses) must agree with the registered codecs. */
import { describe, expect, it } from 'vitest';
import { FORMAT_CATALOG } from '../../shared/formats/catalog.ts';
import { allFormats } from '../../shared/formats/index.ts';

describe('format catalog', () => {
  it('lists every registered codec with the same label, extensions and probe, and loads that codec', async () => {
    const registered = allFormats();
    expect(FORMAT_CATALOG.map((e) => e.id).sort()).toEqual(registered.map((c) => c.id).sort());
    for (const codec of registered) {
      const entry = FORMAT_CATALOG.find((e) => e.id === codec.id)!;
      expect(entry.label).toBe(codec.label);
      expect(entry.extensions).toEqual(codec.extensions);
      expect(entry.probe).toBe(codec.probe);
      expect(await entry.load()).toBe(codec);
    }
  });
});
