/**
 * Preview against the reference viewer (issue 26, goal 5): open -> first frame in the browser host
 * for the largest real model of each model format, and for the P3D box with two 2048x2048 PAAs,
 * held to <= 1.0x the time three.js's own GLTFLoader takes to load and draw the same model's glTF
 * export in the same browser, at the same canvas size, in the same run.
 *
 * The glTF is the GLB LodSmith exports (`lodsmith convert MODEL OUT.glb --textures ROOT`, ROOT
 * being the host's root, so the GLB embeds exactly the textures the preview finds). The reference
 * page is served by the bench from the project's own node_modules (three.js and its GLTFLoader
 * through an import map; no network): a WebGLRenderer made like the viewport's (antialias,
 * preserved drawing buffer, same clear colour and pixel ratio), the viewport's camera and studio
 * lights, and one empty frame drawn before the clock starts, as the app has drawn its empty
 * viewport before the user clicks Open. The clock runs from the fetch of the GLB to the first
 * animation frame that rendered the loaded scene (GLTFLoader resolves once every texture is
 * decoded, so that frame has them all); on LodSmith's side from the click on Open to the first
 * animation frame that drew the new scene, or, when the GLB holds textures, to the frame that drew
 * the last texture to arrive (preview-hook.ts, `openOnce`). On both sides the clock stops when the
 * GPU has drawn that frame: a 1-pixel read of the canvas right after the frame's WebGL calls
 * waits for them. Stopping at the end of the calls left out the raster and, in SwiftShader, the
 * shader program's link at its first draw: 100-220 ms of the reference's frame (measured
 * 2026-11-29), and a different share on each side, since LodSmith compiles its programs while
 * the window waits. The row's note gives both medians at the end of the calls too. Both sides get a fresh
 * page (and LodSmith a fresh host) each time; they take turns, the order swapped every round, and
 * the row gives the median of the per-round ratios, both medians and every round.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { ensureCliBundle } from '../../scripts/build-cli.ts';
import { formatById, type FormatId } from '../../shared/formats/index.ts';
import { repoRoot } from '../../test/helpers/corpus.ts';
import { corpusInputs, FORMAT_IDS, shortName } from './inputs.ts';
import { describeStages, ensureRenderer, launchChromium, openOnce, previewPrerequisites, type OpenSample } from './preview-hook.ts';
import { writeTexturedBox } from './textures.ts';
import type { Row } from './report.ts';
import { median } from './timing.ts';

export const GLTF_RATIO_TARGET = 1.0;

/** A model to open in both viewers. */
interface Input {
  subject: string;
  label: string;
  file: string;
  bytes: number;
}

/** The reference page: three.js + GLTFLoader from /three/ (the project's node_modules). */
const REFERENCE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>three.js GLTFLoader reference</title>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<style>html,body{margin:0;background:#1b1e23}canvas{display:block}</style></head>
<body><canvas id="c"></canvas>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
const q = new URLSearchParams(location.search);
const w = Number(q.get('w')), h = Number(q.get('h'));
const canvas = document.getElementById('c');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, alpha: false });
renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
renderer.setClearColor(0x1b1e23, 1);
renderer.setSize(w, h, false);
canvas.style.width = w + 'px';
canvas.style.height = h + 'px';
const camera = new THREE.PerspectiveCamera(45, w / h, 0.01, 1000);
camera.position.set(3, 2, 4);
const scene = new THREE.Scene();
scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x303030, 1.6));
const key = new THREE.DirectionalLight(0xffffff, 1.8);
key.position.set(0.5, 1, 0.8);
camera.add(key);
scene.add(camera);
const frame = () => new Promise((r) => requestAnimationFrame(() => { renderer.render(scene, camera); r(); }));
window.__referenceLoad = async (url) => {
  const t0 = performance.now();
  const bytes = await (await fetch(url)).arrayBuffer();
  const gltf = await new GLTFLoader().parseAsync(bytes, '');
  scene.add(gltf.scene);
  // Framed as the viewport frames a new model: its bounding sphere fills the narrower side.
  const sphere = new THREE.Box3().setFromObject(gltf.scene).getBoundingSphere(new THREE.Sphere());
  const r = Math.max(sphere.radius, 1e-3);
  const halfFov = Math.atan(Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) * Math.min(1, camera.aspect));
  const dist = (r / Math.sin(halfFov)) * 1.02;
  const dir = new THREE.Vector3(3, 2, 4).normalize();
  camera.position.copy(sphere.center).addScaledVector(dir, dist);
  camera.lookAt(sphere.center);
  camera.near = Math.max(dist / 1000, 1e-4);
  camera.far = dist * 100 + r * 10;
  camera.updateProjectionMatrix();
  await frame();
  const submitted = performance.now() - t0;
  // The frame counts once the GPU has drawn it: WebGL calls only queue the work (SwiftShader
  // rasters it, and links the program at its first draw, in the GPU process).
  const gl = renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const ms = performance.now() - t0;
  let meshes = 0, textures = 0;
  gltf.scene.traverse((o) => { if (o.isMesh) { meshes++; if (o.material && o.material.map) textures++; } });
  return { ms, submitted, meshes, textures };
};
await frame();
window.__referenceReady = true;
</script></body></html>`;

const MIME: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.glb': 'model/gltf-binary' };

/** Serves the reference page, three.js from node_modules and the GLBs (by index), on 127.0.0.1. */
async function referenceServer(glbs: string[]): Promise<{ origin: string; server: Server }> {
  const threeDir = join(repoRoot, 'node_modules/three');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file: string | undefined;
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.end(REFERENCE_PAGE);
      return;
    }
    if (url.pathname.startsWith('/three/')) {
      const p = normalize(join(threeDir, decodeURIComponent(url.pathname.slice('/three/'.length))));
      if (p.startsWith(threeDir + sep)) file = p;
    } else if (url.pathname.startsWith('/model/')) file = glbs[Number(url.pathname.slice('/model/'.length).replace(/\.glb$/, ''))];
    let body: Buffer | undefined;
    try {
      if (file && statSync(file).isFile()) body = readFileSync(file);
    } catch {
      body = undefined;
    }
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    // The GLB is fetched fresh every time (no-store): the page's clock includes reading it, as
    // LodSmith's includes the host reading the model.
    res.writeHead(200, { 'content-type': MIME[extname(file!)] ?? 'application/octet-stream', 'cache-control': url.pathname.startsWith('/model/') ? 'no-store' : 'max-age=3600' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** How many images a GLB embeds (its JSON chunk's `images`). */
export function glbImageCount(glb: Uint8Array): number {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (glb.length < 20 || dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB');
  const len = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len))) as { images?: unknown[] };
  return json.images?.length ?? 0;
}

/** One load in the reference page: from the fetch to the first frame drawn with the model (and to the end of its WebGL calls). */
async function referenceOnce(browser: any, origin: string, index: number, canvas: { width: number; height: number }): Promise<{ seconds: number; submittedSeconds: number; meshes: number; textures: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`${origin}/?w=${canvas.width}&h=${canvas.height}`);
    await page.waitForFunction(() => (window as unknown as { __referenceReady?: boolean }).__referenceReady === true, undefined, { timeout: 60_000 });
    const r = (await page.evaluate((u: string) => (window as unknown as { __referenceLoad(u: string): Promise<{ ms: number; submitted: number; meshes: number; textures: number }> }).__referenceLoad(u), `/model/${index}.glb`)) as { ms: number; submitted: number; meshes: number; textures: number };
    return { seconds: r.ms / 1000, submittedSeconds: r.submitted / 1000, meshes: r.meshes, textures: r.textures };
  } finally {
    await page.close();
  }
}

/** The largest real file of each model format (animation formats have no model to draw). */
function corpusModels(): Input[] {
  return FORMAT_IDS.flatMap((id: FormatId) => {
    let codec;
    try {
      codec = formatById(id);
    } catch {
      return [];
    }
    if (codec.animation?.role === 'clips') return [];
    const all = corpusInputs(id);
    if (all.length === 0) return [];
    const largest = all.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    return [{ subject: id, label: `largest: ${shortName(largest.file)}`, file: largest.file, bytes: largest.bytes }];
  });
}

/** The GLB `lodsmith convert` writes for `file`, textures looked up where the host looks (`root`). */
function exportGlb(file: string, root: string, out: string): void {
  execFileSync(process.execPath, [join(repoRoot, 'bin/lodsmith.cjs'), 'convert', file, out, '--textures', root, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

export async function benchPreviewVsGltf(quick: boolean, log: (s: string) => void): Promise<Row[]> {
  const metric = 'open -> first frame / three.js GLTFLoader';
  const target = `<= ${GLTF_RATIO_TARGET.toFixed(1)}x GLTFLoader`;
  const base: Row = { section: 'preview', subject: 'browser host', input: 'vs three.js GLTFLoader', bytes: 0, metric, value: null, unit: 'x', target, verdict: 'MISS' };
  const missing = previewPrerequisites();
  if (!existsSync(join(repoRoot, 'node_modules/three/examples/jsm/loaders/GLTFLoader.js'))) missing.push("three.js's GLTFLoader (node_modules/three)");
  if (missing.length) return [{ ...base, note: `not measured: ${missing.join(', ')} not available` }];
  const dir = mkdtempSync(join(tmpdir(), 'lodsmith-bench-gltf-ref-'));
  const rows: Row[] = [];
  try {
    const built = await ensureCliBundle();
    if (built) log(`preview vs GLTFLoader: ${built}`);
    const rendererDir = await ensureRenderer(log);
    const inputs = corpusModels();
    if (inputs.length === 0) rows.push({ ...base, input: 'largest corpus models', note: 'not measured: no corpus' });
    log('preview vs GLTFLoader: writing the P3D box with two 2048x2048 PAAs');
    const boxDir = join(dir, 'box');
    mkdirSync(boxDir);
    const box = await writeTexturedBox(boxDir);
    inputs.push({ subject: 'p3d-mlod', label: 'P3D box, two 2048x2048 PAA', file: join(boxDir, 'box.p3d'), bytes: box.length });

    // The GLBs, exported as a user would export them.
    const ready: (Input & { glb: string; images: number })[] = [];
    for (const [i, f] of inputs.entries()) {
      const glb = join(dir, `${i}.glb`);
      try {
        exportGlb(f.file, dirname(f.file), glb);
        ready.push({ ...f, glb, images: glbImageCount(new Uint8Array(readFileSync(glb))) });
      } catch (e) {
        const err = e as { stderr?: Buffer; message: string };
        const why = (err.stderr?.toString().trim() || err.message).split('\n')[0];
        rows.push({ ...base, subject: f.subject, input: f.label, bytes: f.bytes, note: `not measured: the glTF export failed: ${why}` });
      }
    }
    const { origin, server } = await referenceServer(ready.map((r) => r.glb));
    const { startHost } = await import('../../main/host/server.ts');
    const browser = await launchChromium();
    const rounds = quick ? 2 : 5;
    try {
      for (const [index, f] of ready.entries()) {
        log(`preview vs GLTFLoader: ${f.label}`);
        const ours: OpenSample[] = [];
        const ref: { seconds: number; submittedSeconds: number; meshes: number; textures: number }[] = [];
        try {
          const lodsmith = async (): Promise<OpenSample> => {
            const configDir = mkdtempSync(join(dir, 'config-'));
            const h = await startHost({ roots: [dirname(f.file)], configDir, rendererDir, port: 0, samplePath: null, version: 'bench', log: () => undefined });
            try {
              return await openOnce(browser, h.url, f.file, { textures: f.images > 0, drawn: true });
            } finally {
              await h.close();
              rmSync(configDir, { recursive: true, force: true });
            }
          };
          // Round 0 warms both up (browser caches, the host's and the page's code) and gives the
          // canvas size; it is not counted.
          const warm = await lodsmith();
          const canvas = warm.canvas;
          await referenceOnce(browser, origin, index, canvas);
          for (let r = 0; r < rounds; r++) {
            if (r % 2 === 0) {
              ours.push(await lodsmith());
              ref.push(await referenceOnce(browser, origin, index, canvas));
            } else {
              ref.push(await referenceOnce(browser, origin, index, canvas));
              ours.push(await lodsmith());
            }
          }
          const ratios = ours.map((o, i) => o.seconds / ref[i]!.seconds);
          const ratio = median(ratios);
          const ms = (s: number) => (s * 1000).toFixed(0);
          // The stages of the round whose ratio is closest to the median.
          const mid = ours[ratios.reduce((a, x, i) => (Math.abs(x - ratio) < Math.abs(ratios[a]! - ratio) ? i : a), 0)]!;
          rows.push({
            ...base, subject: f.subject, input: f.label, bytes: f.bytes, value: ratio, verdict: ratio <= GLTF_RATIO_TARGET ? 'PASS' : 'MISS',
            note: `LodSmith ${ms(median(ours.map((o) => o.seconds)))} ms, GLTFLoader ${ms(median(ref.map((o) => o.seconds)))} ms (medians of ${rounds} alternating rounds after 1 warm-up; rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}x; LodSmith ${ours.map((o) => ms(o.seconds)).join(', ')} ms, GLTFLoader ${ref.map((o) => ms(o.seconds)).join(', ')} ms)`
              + '; each clock stops when the GPU has drawn the frame (a 1-pixel read after it, on both sides)'
              + (f.images === 0 ? `; at the end of the frame's WebGL calls instead: LodSmith ${ms(median(ours.map((o) => o.submittedSeconds)))} ms, GLTFLoader ${ms(median(ref.map((o) => o.submittedSeconds)))} ms` : '')
              + `; GLB ${(statSync(f.glb).size / 1e6).toFixed(2)} MB, ${f.images} image(s), ${ref[0]!.meshes} mesh(es), ${ref[0]!.textures} textured; canvas ${canvas.width}x${canvas.height}; WebGL in SwiftShader`
              + (f.images > 0 ? `; LodSmith's first frame of the scene (untextured) ${ms(median(ours.map((o) => o.sceneSeconds)))} ms` : '')
              + (mid.stages ? `; stages of LodSmith's median round, ms: ${describeStages(mid.stages)}` : ''),
          });
        } catch (e) {
          rows.push({ ...base, subject: f.subject, input: f.label, bytes: f.bytes, note: `not measured: ${(e as Error).message.split('\n')[0]}` });
        }
      }
    } finally {
      await browser.close();
      server.close();
    }
  } catch (e) {
    rows.push({ ...base, note: `not measured: ${(e as Error).message.split('\n')[0]}` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
