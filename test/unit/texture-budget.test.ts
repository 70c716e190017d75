/**
 * Textures are budgeted by the size their header declares (issue 21, item 10): a small PAA of
 * 4096x4096 with LZO mips (what TexView writes) decodes in the CLI, the texture view and the
 * viewport's texture route; a header declaring more than the formats' 8192 cap gets only the
 * default budget and is refused before anything is allocated; the Memory limit the texture
 * view's error banner points to is honoured by the texture view (and sent by the renderer).
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppErrorException } from '../../main/documents/app-error.ts';
import { DocumentService } from '../../main/documents/document-service.ts';
import { TexturePictureCache } from '../../main/documents/texture-cache.ts';
import { createDispatcher, invoke } from '../../main/ipc/handlers.ts';
import { validateRequest } from '../../main/ipc/validate.ts';
import { createFakeApi } from '../../renderer/bridge/fake-api.ts';
import { setApi } from '../../renderer/bridge/index.ts';
import { useDocs } from '../../renderer/stores/use-docs.ts';
import { useSettings } from '../../renderer/stores/use-settings.ts';
import { BudgetError, MemoryBudget, withBudget } from '../../shared/binary/budget.ts';
import { isDecodeError } from '../../shared/errors.ts';
import { declaredTextureSize, textureBudget, TEXTURE_BUDGET_SIDE } from '../../shared/formats/texture/budget.ts';
import { decodeTexture, decodeTextureMip } from '../../shared/formats/texture/index.ts';
import { createPaa, encodePaa } from '../../shared/formats/texture/paa.ts';
import { decodePng, encodePng } from '../../shared/formats/texture/png.ts';
import { isBlockTexture, unpackBlockTexture } from '../../shared/formats/texture/transfer.ts';
import { runCliIn } from '../cli/helpers/memory-io.ts';

const MiB = 1024 * 1024;
const N = 4096;

/** A 4096x4096 picture with alpha (so DXT5, 16 MiB at the top level), written as TexView does: LZO mips. */
function bigPaa(): Uint8Array {
  const data = new Uint8Array(N * N * 4);
  for (let y = 0; y < N; y++) {
    for (let x = 0; x < N; x++) {
      const o = (y * N + x) * 4;
      data[o] = x < N / 2 ? 230 : 30;
      data[o + 1] = y < N / 2 ? 200 : 40;
      data[o + 2] = 60;
      data[o + 3] = x < N / 2 ? 255 : 128;
    }
  }
  return encodePaa(withBudget(new MemoryBudget(1024 * MiB), () => createPaa({ width: N, height: N, data })));
}

/** `paa` with its first mip's declared size replaced (the LZO flag kept): a forged header. */
function forged(paa: Uint8Array, w: number, h: number): Uint8Array {
  const out = paa.slice();
  const doc = decodeTexture(paa, 'x.paa') as { mips: { offset: number }[] };
  const at = doc.mips[0]!.offset;
  const flag = out[at + 1]! & 0x80;
  out[at] = w & 0xff;
  out[at + 1] = ((w >> 8) & 0x7f) | flag;
  out[at + 2] = h & 0xff;
  out[at + 3] = (h >> 8) & 0xff;
  return out;
}

let paa: Uint8Array;
let dir: string;
beforeAll(async () => {
  paa = bigPaa();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-texbudget-')));
  await writeFile(join(dir, 'big_co.paa'), paa);
  await writeFile(join(dir, 'forged_co.paa'), forged(paa, 32000, 32000));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the texture budget', () => {
  it('a 4096x4096 LZO PAA of ~120 KB: past the file-size default, inside the bound its declared size sets', () => {
    expect(paa.length).toBeLessThan(400 * 1024);
    expect(declaredTextureSize(paa, 'paa')).toEqual({ width: N, height: N });
    // The default for the file's size is what refused it (the message).
    expect(() => withBudget(MemoryBudget.forInput(paa.length), () => decodeTextureMip(decodeTexture(paa, 'big.paa'), 0))).toThrow(BudgetError);
    const budget = textureBudget(paa, 'paa');
    const img = withBudget(budget, () => decodeTextureMip(decodeTexture(paa, 'big.paa'), 0));
    expect([img.width, img.height]).toEqual([N, N]);
    expect(budget.used).toBeGreaterThan(N * N * 4);
  });

  it('a header declaring more than the cap earns nothing beyond the default, and its decode is refused before it allocates', () => {
    for (const side of [TEXTURE_BUDGET_SIDE * 2, 32000]) {
      const bad = forged(paa, side, side);
      const budget = textureBudget(bad, 'paa');
      expect(budget.limit).toBe(MemoryBudget.forInput(bad.length).limit);
      let err: unknown;
      try {
        withBudget(budget, () => decodeTextureMip(decodeTexture(bad, 'bad.paa'), 0));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BudgetError);
      expect(isDecodeError(err) && err.offset).toBeGreaterThan(0);
      // Refused at the first large request: nothing near the declared size was counted.
      expect(budget.used).toBeLessThan(budget.limit);
      expect((err as BudgetError).requested).toBeGreaterThanOrEqual(side * side);
    }
  });

  it('a PNG of one colour is budgeted by its IHDR size; an explicit limit is the limit', () => {
    const png = encodePng({ width: N, height: N, data: new Uint8Array(N * N * 4).fill(200) });
    expect(png.length).toBeLessThan(1024 * 1024);
    expect(declaredTextureSize(png, 'png')).toEqual({ width: N, height: N });
    expect(() => withBudget(MemoryBudget.forInput(png.length), () => decodePng(png))).toThrow(BudgetError);
    expect(withBudget(textureBudget(png, 'png'), () => decodePng(png)).width).toBe(N);
    expect(() => withBudget(textureBudget(png, 'png', 32 * MiB), () => decodePng(png))).toThrow(/decoding memory budget of 32 MiB/);
  });
});

describe('lodsmith texture', () => {
  it('converts the 4096x4096 PAA; --max-memory still limits it; the forged header is exit 2 with its offset', async () => {
    const ok = await runCliIn(dir, ['texture', 'big_co.paa', 'big.png']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/4096x4096 PNG/);
    const limited = await runCliIn(dir, ['texture', 'big_co.paa', 'small.png', '--max-memory', '32M']);
    expect(limited.code).toBe(2);
    expect(limited.err).toMatch(/decoding memory budget of 32 MiB/);
    const bad = await runCliIn(dir, ['texture', 'forged_co.paa', 'forged.png']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/would allocate .* past the decoding memory budget .*offset|offset .*would allocate/i);
    const info = await runCliIn(dir, ['info', 'big_co.paa']);
    expect(info.code).toBe(0);
  });
});

describe('the editor', () => {
  it('the texture view reads the 4096x4096 PAA, and honours the Memory limit sent with texture:read', async () => {
    const svc = new DocumentService({ configDir: join(dir, 'config'), emit: () => undefined });
    const dispatch = createDispatcher(svc, { openExternal: async () => undefined } as never);
    const file = join(dir, 'big_co.paa');
    const v = await invoke(dispatch, 'texture:read', { path: file });
    expect(v.ok && [v.value.info.width, v.value.info.height]).toEqual([N, N]);
    // The limit crosses the IPC schema and reaches the decode.
    const limited = await invoke(dispatch, 'texture:read', { path: file, maxMemory: 16 * MiB });
    expect(limited.ok).toBe(false);
    expect(!limited.ok && limited.error.message).toMatch(/decoding memory budget of 16 MiB.*Memory limit setting/);
    const raised = await invoke(dispatch, 'texture:read', { path: file, maxMemory: 512 * MiB });
    expect(raised.ok).toBe(true);
    let err: unknown;
    try {
      await svc.readTexture(join(dir, 'forged_co.paa'), 0);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppErrorException);
    expect((err as AppErrorException).appError.message).toMatch(/would allocate/);
  });

  it("the viewport's texture route sends the 4096x4096 PAA as DXT blocks", async () => {
    const out = new TexturePictureCache().browserImage(paa, 'big_co.paa');
    expect(out && isBlockTexture(out)).toBe(true);
    const t = unpackBlockTexture(out!);
    expect([t.format, t.width, t.height]).toEqual(['bc3', N, N]);
    // With a Memory limit too small for it, nothing is sent (the material keeps its colour).
    expect(new TexturePictureCache().browserImage(paa, 'big_co.paa', 4 * MiB)).toBeNull();
  });

  it('the IPC schema takes the Memory limit on every texture channel, 1 MiB to 64 GiB', () => {
    for (const [ch, req] of [['texture:read', { path: 'a.paa' }], ['texture:replace', { path: 'a.paa', png: new Uint8Array(1) }], ['texture:undo', { path: 'a.paa' }]] as const) {
      const good = validateRequest(ch, { ...req, maxMemory: 256 * MiB });
      expect(good.ok && (good.value as { maxMemory?: number }).maxMemory, ch).toBe(256 * MiB);
      for (const bad of [0, 1024, 1.5, 65 * 1024 * MiB]) expect(validateRequest(ch, { ...req, maxMemory: bad }).ok, `${ch} ${bad}`).toBe(false);
    }
  });

  it('the renderer sends the status bar Memory limit with texture:read', async () => {
    setActivePinia(createPinia());
    const fake = createFakeApi({ codecs: [], files: new Map() });
    const seen: unknown[] = [];
    setApi({
      ...fake,
      invoke: (async (channel: string, req: unknown) => {
        if (channel === 'texture:read') seen.push(req);
        return fake.invoke(channel as never, req as never);
      }) as typeof fake.invoke,
    });
    const docs = useDocs();
    await docs.openTexture('models/a.paa');
    useSettings().maxMemoryMiB = 300;
    await docs.openTexture('models/a.paa');
    expect(seen).toEqual([{ path: 'models/a.paa', mip: 0 }, { path: 'models/a.paa', mip: 0, maxMemory: 300 * MiB }]);
  });
});
