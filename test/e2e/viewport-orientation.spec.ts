/**
 * The preview maps textures as the glTF export does (issue 21, item 1). For each format family a
 * model with an asymmetric texture (four coloured quadrants), made by the project's own writers,
 * is drawn in Chromium from one fixed camera twice: as the viewport's scene builder builds it,
 * and as three.js's GLTFLoader reads the model's glTF export. Every colour must land in the same
 * place in both pictures; a texture turned over or mirrored moves at least two of them.
 */
import { test as base, expect } from '@playwright/test';
import { build } from 'rolldown';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath, repoRoot } from './fixtures/paths.ts';
import type { Comparison, Family } from './fixtures/orientation-harness.ts';

// WebGL without a GPU: SwiftShader draws, so pixels can be read back.
const test = base.extend<{ harness: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  harness: async ({}, use) => {
    const out = await build({
      input: join(repoRoot, 'test/e2e/fixtures/orientation-harness.ts'),
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      // One ES module (the codecs load lazily, some with top-level await): dynamic imports inlined.
      output: { format: 'es', inlineDynamicImports: true },
    });
    await use(out.output[0].code);
  },
});
test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const CASES: [Family, Comparison['route']][] = [
  ['p3d-mlod', 'picture'],
  ['p3d-mlod', 'blocks'],
  ['p3d-odol', 'blocks'],
  ['lodka-lod', 'picture'],
  ['grimrock-model', 'picture'],
  ['unigine-mesh', 'picture'],
];

for (const [family, route] of CASES) {
  test(`${family} (${route === 'blocks' ? 'DXT blocks, as PAA/DDS arrive' : 'a picture'}): every quadrant of the texture where the glTF export draws it`, async ({ page, harness }, info) => {
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: harness, type: 'module' });
    await page.waitForFunction(() => typeof window.lodsmithOrientation === 'function');
    const r = await page.evaluate(([f, how]) => window.lodsmithOrientation(f as Family, how as Comparison['route']), [family, route] as const);
    await info.attach('spots.json', { body: JSON.stringify(r, null, 1), contentType: 'application/json' });
    const area = r.size * r.size;
    for (const c of ['red', 'green', 'blue', 'yellow'] as const) {
      // Each quadrant is clearly visible in the glTF picture (the check is not about empty frames)...
      expect(r.gltf[c].n, `${c} pixels in the glTF picture`).toBeGreaterThan(area * 0.01);
      expect(r.viewport[c].n, `${c} pixels in the preview`).toBeGreaterThan(area * 0.01);
      // ...and lands in the same place in the preview.
      expect(Math.hypot(r.viewport[c].x - r.gltf[c].x, r.viewport[c].y - r.gltf[c].y), `${c}: preview vs glTF (px)`).toBeLessThan(r.size * 0.03);
    }
    // The square was written through glTF import upright, seen from the front: read back from
    // the family's file, the export still shows red at the top left (the family's UV rule and
    // its import agree). The ODOL grid comes from the fixture builder and has no "upright".
    if (family !== 'p3d-odol') {
      expect(r.gltf.red.x, 'red left of green').toBeLessThan(r.gltf.green.x);
      expect(r.gltf.red.y, 'red above blue').toBeLessThan(r.gltf.blue.y);
      expect(r.gltf.blue.x, 'blue left of yellow').toBeLessThan(r.gltf.yellow.x);
    }
    // The four quadrants are apart on screen: left/right and top/bottom both differ.
    expect(Math.abs(r.gltf.red.x - r.gltf.green.x) + Math.abs(r.gltf.red.y - r.gltf.green.y)).toBeGreaterThan(r.size * 0.1);
    expect(Math.abs(r.gltf.red.x - r.gltf.blue.x) + Math.abs(r.gltf.red.y - r.gltf.blue.y)).toBeGreaterThan(r.size * 0.1);
  });
}
