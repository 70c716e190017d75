import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeModelCfg, encodeModelCfg, setValue } from '../../shared/formats/p3d/modelcfg/document.ts';
import { readModelCfg } from '../../shared/formats/p3d/modelcfg/model.ts';
import { corpusDir, corpusFiles, hasCorpus, readBytes } from '../helpers/corpus.ts';

/** Every model.cfg of the corpus: beside the models in modelcfg/*, and the RTM folder's skeleton configs. */
function modelCfgs(): string[] {
  const dir = join(corpusDir, 'modelcfg');
  const beside = existsSync(dir) ? readdirSync(dir).map((d) => join(dir, d, 'model.cfg')).filter((f) => existsSync(f)) : [];
  return [...beside, ...corpusFiles('rtm').filter((f) => f.toLowerCase().endsWith('model.cfg'))].sort();
}

describe.skipIf(!hasCorpus)('model.cfg corpus round trip', () => {
  const files = modelCfgs();
  it('has the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files.map((f) => [`${basename(join(f, '..'))}/${basename(f)}`, f] as const))('%s reads and saves byte for byte', (_name, file) => {
    const bytes = readBytes(file);
    const doc = decodeModelCfg(bytes, { fileName: file });
    expect(encodeModelCfg(doc)).toEqual(bytes);
    const cfg = readModelCfg(doc);
    expect(cfg.problems).toEqual([]);
    expect(cfg.skeletons.length + cfg.models.length).toBeGreaterThan(0);
  });

  it('an edited value changes only its own characters', () => {
    const file = files.find((f) => f.includes('grad_trenches'));
    if (!file) return;
    const bytes = readBytes(file);
    const doc = decodeModelCfg(bytes, { fileName: file });
    const edited = encodeModelCfg(setValue(doc, ['CfgModels', 'trench_short', 'Animations', 'rise', 'minValue'], -1.5));
    const before = new TextDecoder().decode(bytes);
    const at = before.indexOf('"-1.2"');
    expect(new TextDecoder().decode(edited)).toBe(before.slice(0, at) + '"-1.5"' + before.slice(at + 6));
  });
});
