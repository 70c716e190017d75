/**
 * What the codecs declare they can do (shared/formats/capabilities.ts) holds up: every glTF import
 * target's writer loads and writes a document its own codec encodes, the snapshot's capabilities
 * follow the codec, and the pairing roles of models and animations are the ones the service uses.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentService } from '../../main/documents/document-service.ts';
import { sampleBytes } from '../../build/make-sample.ts';
import { FORMAT_CATALOG } from '../../shared/formats/catalog.ts';
import { allFormats, capabilitiesOf, detectFormat, formatById, playsOn, type FormatCodec } from '../../shared/formats/index.ts';
import { importTargetsOf, loadImportTargets } from '../../shared/import/index.ts';
import type { OutlineNode } from '../../shared/model/outline.ts';
import { fakeCodec } from '../host/fake-format.ts';

const withGltf = (): FormatCodec[] => allFormats().filter((c) => c.gltf);

describe('format capabilities', () => {
  it('every family in the catalog is registered, and every registered model format is in the catalog', () => {
    const ids = allFormats().map((c) => c.id);
    for (const e of FORMAT_CATALOG) expect(ids).toContain(e.id);
    expect(new Set(FORMAT_CATALOG.map((e) => e.id)).size).toBe(FORMAT_CATALOG.length);
  });

  it('the import targets come from the codecs: one per extension, each one of its codec\'s extensions, in catalog order', async () => {
    const targets = importTargetsOf(allFormats());
    expect(targets.length).toBeGreaterThanOrEqual(6);
    expect(new Set(targets.map((t) => t.extension)).size).toBe(targets.length);
    for (const t of targets) {
      expect(formatById(t.format).extensions).toContain(t.extension);
      expect(t.label).toContain(t.extension);
    }
    // The CLI's list (codecs loaded from the catalog) is the same list.
    expect(await loadImportTargets()).toEqual(targets.filter((t) => FORMAT_CATALOG.some((e) => e.id === t.format)));
  });

  it('the host opens every registered format\'s extensions and the game textures (the Open dialog dims the rest)', () => {
    const svc = new DocumentService({ configDir: join(tmpdir(), 'lodsmith-caps-unused') });
    const exts = svc.openableExtensions();
    for (const c of allFormats()) for (const e of c.extensions) expect(exts).toContain(e);
    for (const e of ['.paa', '.pac', '.dds', '.tga']) expect(exts).toContain(e);
    expect(new Set(exts).size).toBe(exts.length);
    expect(svc.importTargets().map((t) => t.extension)).toEqual(importTargetsOf(allFormats()).map((t) => t.extension));
  });

  it('each import writer loads from its folder and declares how names are stored', async () => {
    for (const codec of withGltf()) {
      const importer = await codec.gltf!.load();
      expect(typeof importer.write, codec.id).toBe('function');
      expect(['latin1', 'cp1251', 'utf8'], codec.id).toContain(importer.nameEncoding);
      // A format that offers "Replace mesh" in the tree has a writer that can build the replacement.
      expect(!!importer.replaceMesh, codec.id).toBe(!!codec.gltf!.replaceable);
    }
  });

  it('a snapshot\'s capabilities follow the codec: the sample LODka has a screenshot block and replaceable meshes', () => {
    const bytes = sampleBytes();
    const codec = detectFormat(bytes, 'sample.lod')!;
    const outline = codec.outline(codec.decode(bytes));
    const caps = capabilitiesOf(codec, outline);
    expect(caps.screenshot).toBe(true);
    expect(caps.lodChoice).toBe(false);
    expect(caps.panels).toEqual([]);
    const meshes: string[] = [];
    const walk = (n: OutlineNode): void => {
      if (n.kind === 'mesh') meshes.push(JSON.stringify(n.path));
      for (const c of n.children ?? []) walk(c);
    };
    walk(outline);
    expect(meshes.length).toBeGreaterThan(0);
    expect(caps.replaceable).toEqual(meshes);
    // A format that declares nothing offers nothing.
    const bare = capabilitiesOf({ ...fakeCodec, screenshot: undefined }, outline);
    expect(bare).toEqual({ screenshot: false, animationFiles: false, animationExtensions: [], panels: [], lodChoice: false, replaceable: [] });
  });

  it('models and animations pair by role, and the P3D codecs offer their panels and one LOD at a time', () => {
    const roles = (role: 'model' | 'clips') => allFormats().filter((c) => c.animation?.role === role).map((c) => c.id).sort();
    expect(roles('model').length).toBeGreaterThan(0);
    expect(roles('clips').length).toBeGreaterThan(0);
    for (const c of allFormats().filter((x) => x.animation?.role === 'clips')) expect(c.gltf?.replaceable, c.id).toBeUndefined();
    const lodFormats = allFormats().filter((c) => c.editor?.lodChoice);
    expect(lodFormats.length).toBeGreaterThan(0);
    for (const c of lodFormats) expect(c.editor!.panels).toEqual(['face-groups', 'lod-proxies', 'selections']);
  });

  it('an animation format plays on every model format, or only on those it names (playsOn)', () => {
    const codec = (id: string, animation: FormatCodec['animation']): FormatCodec => ({ ...fakeCodec, id, animation });
    const model = codec('x-model', { role: 'model' });
    const other = codec('y-model', { role: 'model' });
    const anyClips = codec('x-clips', { role: 'clips' });
    const onlyX = codec('x-rtm', { role: 'clips', playsOn: ['x-model'] });
    expect(playsOn(anyClips, model)).toBe(true);
    expect(playsOn(anyClips, other)).toBe(true);
    expect(playsOn(onlyX, model)).toBe(true);
    expect(playsOn(onlyX, other)).toBe(false);
    // Roles are not interchangeable, and a format without a role pairs with nothing.
    expect(playsOn(model, anyClips)).toBe(false);
    expect(playsOn(anyClips, codec('z', undefined))).toBe(false);
    // The registered animation formats play on the registered models.
    const clips = allFormats().filter((c) => c.animation?.role === 'clips');
    const models = allFormats().filter((c) => c.animation?.role === 'model');
    for (const c of clips) expect(models.some((m) => playsOn(c, m)), c.id).toBe(true);
  });

  it('a material library declared by a codec parses its own files', () => {
    const libs = allFormats().filter((c) => c.textures?.library);
    expect(libs.length).toBeGreaterThan(0);
    for (const c of libs) {
      const lib = c.textures!.library!;
      expect(lib.extension).toMatch(/^\.[a-z]+$/);
      const sample = lib.extension === '.lua'
        ? 'defineMaterial{ name = "wall", diffuseMap = "assets/wall_dif.tga" }'
        : '<materials><material name="wall"><texture name="diffuse">wall_d.dds</texture></material></materials>';
      expect([...lib.parse(sample)], c.id).toEqual([['wall', lib.extension === '.lua' ? 'assets/wall_dif.tga' : 'wall_d.dds']]);
    }
  });
});
