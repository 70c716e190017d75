/**
 * The fuzz worker: runs one input at a time through the whole pipeline a user can drive: decode
 * (inside the decoding memory budget), info, validate, the outline and inspector rows, the scene
 * (and an Arma animation attached to it when it has bones), glTF export (checked by the Khronos
 * validator when the driver asks), and encode. The parent
 * thread enforces the time limit (it terminates this worker on a hang) and the heap limit
 * (resourceLimits); this side counts ArrayBuffer allocations.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { allocatedBytes, installAllocMeter, resetAllocated } from './alloc-meter.ts';
import type { FuzzRequest, FuzzResponse } from './protocol.ts';

// Before the codecs load, so every allocation they make is counted.
installAllocMeter();
const { allFormats, formatById } = await import('../../shared/formats/index.ts');
const { isDecodeError } = await import('../../shared/errors.ts');
const { defaultBudgetBytes } = await import('../../shared/binary/budget.ts');
const { SCENE_FAILED, unguardedScene } = await import('../../shared/formats/registry.ts');
const { sceneToGltf, writeGlb } = await import('../../shared/export/gltf.ts');
const { importGltf, gltfInputOf, isImportError, importTargetsOf } = await import('../../shared/import/index.ts');
const { MemoryBudget } = await import('../../shared/binary/budget.ts');
const { joinBytes } = await import('../../shared/binary/writer.ts');
const { animationSceneOptions, bindClips } = await import('../../shared/scene/attach.ts');
/** Must match seeds.ts (not imported here: that module loads the fixture builders). */
const GLTF_IMPORT = 'gltf-import';
const importTargets = importTargetsOf(allFormats()).map((t) => t.format);
type Validator = typeof import('gltf-validator');
type Scene = import('../../shared/scene/scene.ts').Scene;

/**
 * What attaching an Arma animation does to the model's scene: a two-frame plain RTM that turns the
 * model's first four bones (by name) a quarter turn, given to the RTM codec with what the model
 * tells animations (its skeleton, its own origin: an auto-centred ODOL's bounding centre comes from
 * the mutated file) and bound to the model, as the editor and `convert --anim` bind it.
 */
function attachedRtmClips(scene: Scene): import('../../shared/scene/scene.ts').AnimationClip[] {
  const bones = scene.skeleton?.bones.slice(0, 4).map((b) => b.name) ?? [];
  if (!bones.length) return [];
  const rest = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
  const turn = [0, 0, -1, 0, 1, 0, 1, 0, 0, 0.1, 0, 0];
  const rtm = {
    kind: 'rtm', mdat: false, mdatReserved: 0, properties: [], motion: [0, 0, 0], frameCount: 2, boneCount: bones.length, bones,
    boneFields: new Uint8Array(0), frames: [0, 1].map((phase, k) => ({ phase, names: new Uint8Array(0), matrices: Float32Array.from(bones.flatMap(() => (k ? turn : rest))) })),
  };
  return bindClips(scene, unguardedScene(formatById('p3d-rtm'))(rtm, animationSceneOptions(scene)).clips);
}
let validator: Validator | undefined;
const preload = (workerData as { preload?: string } | null)?.preload;
if (preload) await import(preload);

function describe(e: unknown): { message: string; stack: string; name: string } {
  if (e instanceof Error) return { message: e.message, stack: e.stack ?? '', name: e.name };
  return { message: String(e), stack: '', name: typeof e };
}

/** Byte equality by memcmp (a JS loop over megabyte outputs cost more than some stages). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/**
 * ArrayBuffer bytes this thread holds: V8's external memory, which counts every ArrayBuffer's
 * backing store as it is made (and drops it when collected). process.memoryUsage() says the same
 * but also reads the resident set size from the OS on every call, which cost 5% of a run.
 */
function externalBytes(): number {
  return getHeapStatistics().external_memory;
}

/** CPU time this thread has used, in microseconds (wall time says little on a shared machine). */
function threadCpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

let cpuMark = threadCpuMicros();

/**
 * This thread's CPU time since the previous input ended: the input itself and what came between
 * (receiving it, collecting the previous input's garbage), so the figures add up to the run.
 */
function cpuSinceLastInput(): number {
  const now = threadCpuMicros();
  const d = now - cpuMark;
  cpuMark = now;
  return d;
}

let _lastDoc: unknown;

/** Most outline nodes whose inspector rows are built per input (a huge tree is not the point). */
const MAX_INSPECTED = 400;

async function run(req: FuzzRequest): Promise<FuzzResponse> {
  _lastDoc = undefined;
  const t0 = performance.now();
  const abBefore = externalBytes();
  resetAllocated();
  const bytes = req.bytes;
  const limit = req.memFactor * bytes.length + req.memSlackBytes;
  const budget = defaultBudgetBytes(bytes.length);
  const base = { id: req.id, allocated: 0, retained: 0, ms: 0 };
  let gltfChecked = false;
  /** The copying decode's GLB, which the sharing decode's must equal (checkCliModes). */
  let copyGlb: Uint8Array | undefined;
  const done = (r: Omit<FuzzResponse, 'id' | 'allocated' | 'retained' | 'ms'>, doc?: unknown, allocated = allocatedBytes()): FuzzResponse => {
    // The document stays reachable while its retained size is read.
    _lastDoc = doc;
    const retained = externalBytes() - abBefore;
    const out = { ...base, ...r, allocated, retained, ms: performance.now() - t0, cpuUs: cpuSinceLastInput(), ...(gltfChecked ? { gltfChecked } : {}) };
    if (r.outcome === 'ok' || r.outcome === 'decode-error' || r.outcome === 'mismatch') {
      // An allocation far beyond the input is a failure even when every stage ends well: a forged
      // count was believed before the bytes behind it were checked.
      if (out.allocated > limit || retained > limit) {
        return { ...out, outcome: 'blowup', message: `allocated ${out.allocated} bytes (retained ${retained}) for a ${bytes.length}-byte input; limit ${limit}` };
      }
    }
    return out;
  };

  if (req.format === GLTF_IMPORT) return importInput(req, done, budget);

  const codec = formatById(req.format as Parameters<typeof formatById>[0]);
  let doc: object;
  try {
    doc = codec.decode(bytes, { fileName: 'fuzz-input' });
  } catch (e) {
    const d = describe(e);
    if (isDecodeError(e)) {
      const off = (e as { offset?: unknown }).offset;
      if (typeof off !== 'number' || !Number.isInteger(off) || off < 0 || off > bytes.length) {
        return done({ outcome: 'bad-error', stage: 'decode', message: `DecodeError offset ${String(off)} outside the ${bytes.length}-byte input: ${d.message}`, stack: d.stack });
      }
      if (allocatedBytes() > budget) {
        return done({ outcome: 'blowup', stage: 'decode', message: `decode allocated ${allocatedBytes()} bytes before refusing a ${bytes.length}-byte input; the budget is ${budget}` });
      }
      // A deferred decode (info, roundtrip: DecodeOptions.defer) checks what it leaves unmade, so
      // it must refuse what the copying decode refuses.
      try {
        codec.decode(bytes, { fileName: 'fuzz-input', defer: true });
        return done({ outcome: 'mismatch', stage: 'defer', message: `a deferred decode accepts an input the copying decode refuses (${d.message})` });
      } catch (again) {
        if (!isDecodeError(again)) return done({ outcome: 'crash', stage: 'defer', message: `${describe(again).name} in a deferred decode: ${describe(again).message}`, stack: describe(again).stack });
      }
      return done({ outcome: 'decode-error', stage: 'decode', message: d.message });
    }
    return done({ outcome: 'crash', stage: 'decode', message: `${d.name}: ${d.message}`, stack: d.stack });
  }
  // The memory ceiling of decoding is the decoding memory budget itself: anything the codecs
  // allocate without charging it still has to fit.
  if (allocatedBytes() > budget) {
    return done({ outcome: 'blowup', stage: 'decode', message: `decode allocated ${allocatedBytes()} bytes for a ${bytes.length}-byte input; the budget is ${budget}` }, doc);
  }

  if (req.pipeline !== false) {
    let stage = 'info';
    try {
      const info = codec.info(doc, bytes.length);
      JSON.stringify(info, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      stage = 'validate';
      const problems = codec.validate(doc);
      for (const p of problems) {
        if (typeof p.message !== 'string' || (p.offset !== undefined && !(Number.isInteger(p.offset) && p.offset >= 0 && p.offset <= bytes.length))) {
          throw new Error(`validate returned a problem without a message or with offset ${String(p.offset)} outside the input`);
        }
      }
      stage = 'outline';
      const outline = codec.outline(doc);
      stage = 'inspector';
      // Breadth first, the first MAX_INSPECTED nodes. The queue holds no more than that: a node
      // with 100,000 children would make shift() and push(...children) the most costly stage.
      const queue = [outline];
      for (let at = 0; at < queue.length && at < MAX_INSPECTED; at++) {
        const node = queue[at]!;
        const rows = codec.inspect(doc, node.path);
        if (rows) JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
        for (const c of node.children ?? []) {
          if (queue.length >= MAX_INSPECTED) break;
          queue.push(c);
        }
      }
      stage = 'scene';
      // Without the registry's guard, so a throw keeps its stack (the guard would turn it into a
      // SCENE_FAILED warning, which counts as a failure too).
      const scene = unguardedScene(codec)(doc);
      const failed = scene.warnings?.find((w) => w.startsWith(SCENE_FAILED));
      if (failed) throw new Error(`toScene failed: ${failed}`);
      stage = 'gltf';
      const { document } = sceneToGltf(scene, { generator: 'LodSmith fuzz' });
      const glb = await writeGlb(document);
      copyGlb = glb;
      stage = 'animation';
      const clips = attachedRtmClips(scene);
      stage = 'gltf:animation';
      const animated = clips.length ? await writeGlb(sceneToGltf(scene, { generator: 'LodSmith fuzz', extraClips: clips }).document) : undefined;
      const pipelineAllocated = allocatedBytes();
      if (req.gltfCheck) {
        validator ??= (await import('gltf-validator')).default as unknown as Validator;
        for (const [which, bytes] of [['gltf-validator', glb], ['gltf-validator:animation', animated]] as const) {
          if (!bytes) continue;
          stage = which;
          const report = await validator.validateBytes(bytes, { maxIssues: 10 });
          gltfChecked = true;
          if (report.issues.numErrors > 0) {
            const first = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
            return done({ outcome: 'gltf-invalid', stage, message: `${report.issues.numErrors} validator error(s): ${first.slice(0, 3).join('; ')}` }, doc, pipelineAllocated);
          }
        }
      }
      // The validator's own allocations are not the codecs'.
      resetAllocated();
      allocatedAfterPipeline = pipelineAllocated;
    } catch (e) {
      const d = describe(e);
      return done({ outcome: 'stage-crash', stage, message: `${d.name} in ${stage}: ${d.message}`, stack: d.stack }, doc);
    }
  }
  if (!req.encode) return done({ outcome: 'ok' }, doc, allocatedBytes() + allocatedAfterPipeline);
  let identical = true;
  // Saving an untouched document (the default, which may copy kept bytes) and encoding every field
  // from its decoded value (what an edited file needs) are separate promises: each is checked.
  for (const reuseRaw of [true, false]) {
    try {
      const out = codec.encode(doc, { reuseRaw });
      if (!same(out, bytes)) identical = false;
    } catch (e) {
      const d = describe(e);
      const which = reuseRaw ? 'encode' : 'encode(reuseRaw: false)';
      return done({ outcome: 'encode-crash', stage: 'encode', message: `${d.name} from ${which}: ${d.message}`, stack: d.stack }, doc);
    }
  }
  const total = allocatedBytes() + allocatedAfterPipeline;
  allocatedAfterPipeline = 0;
  // An input the decoder accepted must save back byte-identical: the lossless promise holds for
  // odd files too, not only for the ones the corpus happens to contain.
  if (!identical) return done({ outcome: 'mismatch', stage: 'encode', message: 'accepted input does not re-encode byte-identical' }, doc, total);
  const modes = await checkCliModes(codec, doc, bytes, copyGlb);
  if (modes) return done({ outcome: 'stage-crash', stage: modes.stage, message: modes.message, stack: modes.stack }, doc, total);
  return done({ outcome: 'ok' }, doc, total);
}

type Done = (r: Omit<FuzzResponse, 'id' | 'allocated' | 'retained' | 'ms'>, doc?: unknown, allocated?: number) => FuzzResponse;

/**
 * A glTF import input: the (mutated) .glb or .gltf imported into one model format (the driver
 * spreads `importTarget` over the inputs, so every format gets its share), under the decoding memory budget for its size.
 * Refusal (ImportError, or a DecodeError such as the budget's) is a proper end. What the import
 * wrote must then decode with that format's codec and save back byte-identical.
 */
async function importInput(req: FuzzRequest, done: Done, budget: number): Promise<FuzzResponse> {
  const target = importTargets[(req.importTarget ?? 0) % importTargets.length]!;
  let bytes: Uint8Array;
  try {
    bytes = (await importGltf(gltfInputOf(req.bytes), target, {}, new MemoryBudget(budget))).bytes;
  } catch (e) {
    const d = describe(e);
    if (isImportError(e) || isDecodeError(e)) return done({ outcome: 'decode-error', stage: `import:${target}`, message: d.message });
    return done({ outcome: 'crash', stage: `import:${target}`, message: `${d.name} importing into ${target}: ${d.message}`, stack: d.stack });
  }
  const codec = formatById(target);
  let doc: object;
  try {
    doc = codec.decode(bytes, { fileName: `imported.${target}` });
  } catch (e) {
    const d = describe(e);
    return done({ outcome: 'stage-crash', stage: `import:${target}:decode`, message: `the ${target} file the import wrote does not decode: ${d.name}: ${d.message}`, stack: d.stack });
  }
  try {
    if (!same(codec.encode(doc), bytes)) return done({ outcome: 'mismatch', stage: `import:${target}:encode`, message: `the ${target} file the import wrote does not save back byte-identical` }, doc);
  } catch (e) {
    const d = describe(e);
    return done({ outcome: 'encode-crash', stage: `import:${target}:encode`, message: `${d.name} saving the imported ${target} file: ${d.message}`, stack: d.stack }, doc);
  }
  return done({ outcome: 'ok', stage: `import:${target}` }, doc);
}

/** Allocations of the stages before encode (the validator's own are left out). */
let allocatedAfterPipeline = 0;

parentPort!.on('message', (req: FuzzRequest) => {
  void (async () => {
    let res: FuzzResponse;
    try {
      allocatedAfterPipeline = 0;
      res = await run(req);
    } catch (e) {
      const d = describe(e);
      res = { id: req.id, outcome: 'crash', message: `${d.name}: ${d.message}`, stack: d.stack, allocated: allocatedBytes(), retained: 0, ms: 0, cpuUs: 0 };
    }
    _lastDoc = undefined;
    parentPort!.postMessage(res);
  })();
});
parentPort!.postMessage({ ready: true });

const encodePiecesOf = (codec: ReturnType<typeof formatById>, doc: object): Uint8Array[] => (codec.encodePieces ? codec.encodePieces(doc) : [codec.encode(doc)]);
const infoJson = (info: unknown) => JSON.stringify(info, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/**
 * The decodes the CLI runs instead of the editor's copying one (shared/binary/share.ts), on an
 * input the copying decode accepted and saved back byte-identical: `share: true` (roundtrip,
 * check, validate, convert), whose document, saved whole or as pieces, must be the file again,
 * whose scene must give the copying decode's GLB (what `convert` writes; it also makes every
 * deferred field) and whose save from its fields must be the file; and `share: 'in-situ'` (info)
 * on a copy of the input at an odd offset, which may move arrays inside it, whose info must be
 * the copying decode's and whose save from its fields the file. Returns what went wrong, or
 * undefined.
 */
async function checkCliModes(codec: ReturnType<typeof formatById>, doc: object, bytes: Uint8Array, copyGlb: Uint8Array | undefined): Promise<{ stage: string; message: string; stack?: string } | undefined> {
  const want = infoJson(codec.info(doc, bytes.length));
  let stage = 'share';
  try {
    const shared = codec.decode(bytes, { fileName: 'fuzz-input', share: true }) as object;
    if (infoJson(codec.info(shared, bytes.length)) !== want) return { stage, message: 'a shared decode gives another info than the copying decode' };
    if (!same(codec.encode(shared), bytes)) return { stage, message: 'a shared decode does not save back byte-identical' };
    if (codec.encodePieces) {
      stage = 'share-pieces';
      const pieces = codec.encodePieces(shared);
      let at = 0;
      for (const piece of pieces) {
        if (!same(piece, bytes.subarray(at, at + piece.length))) return { stage, message: `the saved pieces differ from the input in the piece at ${at}` };
        at += piece.length;
      }
      if (at !== bytes.length) return { stage, message: `the saved pieces hold ${at} bytes, the input ${bytes.length}` };
    }
    if (copyGlb) {
      stage = 'share-gltf';
      const { document } = sceneToGltf(unguardedScene(codec)(shared), { generator: 'LodSmith fuzz' });
      if (!same(await writeGlb(document), copyGlb)) return { stage, message: 'a shared decode converts to another glTF than the copying decode' };
    }
    stage = 'share-fields';
    if (!same(codec.encode(shared, { reuseRaw: false }), bytes)) return { stage, message: 'a shared decode does not save back byte-identical from its fields' };
    stage = 'defer';
    // roundtrip's decode: shared and deferred. Untouched, its pieces are the file and nothing is
    // made; saved from its fields, every deferred value is made and must give the file again.
    const lazy = codec.decode(bytes, { fileName: 'fuzz-input', share: true, defer: true }) as object;
    if (infoJson(codec.info(lazy, bytes.length)) !== want) return { stage, message: 'a deferred decode gives another info than the copying decode' };
    if (!same(joinBytes(encodePiecesOf(codec, lazy)), bytes)) return { stage, message: 'a deferred decode does not save back byte-identical' };
    if (!same(codec.encode(lazy, { reuseRaw: false }), bytes)) return { stage, message: 'a deferred decode does not save back byte-identical from its (made) fields' };
    stage = 'in-situ';
    const place = new Uint8Array(bytes.length + 1).subarray(1);
    place.set(bytes);
    // info's decode: in situ and deferred.
    const situ = codec.decode(place, { fileName: 'fuzz-input', share: 'in-situ', defer: true }) as object;
    if (infoJson(codec.info(situ, bytes.length)) !== want) return { stage, message: 'an in-situ decode gives another info than the copying decode' };
    if (!same(codec.encode(situ, { reuseRaw: false }), bytes)) return { stage, message: 'an in-situ decode does not save back byte-identical from its fields' };
  } catch (e) {
    const d = describe(e);
    return { stage, message: `${d.name} in ${stage} decode of an input the copying decode accepted: ${d.message}`, stack: d.stack };
  }
  return undefined;
}
