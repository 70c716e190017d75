/**
 * The process the save crash trials kill: opens a model through the real document service and
 * saves it in a loop, each time with a different screenshot (so every version has its own bytes
 * and size), announcing on stdout what it is about to write and each step of the save.
 *
 *   node scripts/save-crash/child.ts FILE CONFIG_DIR SALT [--saves N] [--die-at STEP]
 *
 * Lines (JSON): {t:'ready', hash} after opening (hash of the bytes read), {t:'saving', k, hash}
 * before save k, {t:'step', k, step} between the steps of the save, {t:'saved', k}. With
 * `--die-at STEP` the process kills itself with SIGKILL when the first save reaches STEP.
 */
import { createHash } from 'node:crypto';
import { SAVE_STEPS, type SaveStep } from '../../main/documents/atomic-save.ts';
import { DocumentService } from '../../main/documents/document-service.ts';

function line(msg: object): void {
  // stdout is a pipe here, which Node writes synchronously on POSIX: a line printed before a
  // step is in the parent's hands before the step starts.
  process.stdout.write(JSON.stringify(msg) + '\n');
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Screenshot payload k: its size and bytes depend on (salt, k). */
function payload(salt: number, k: number): Uint8Array {
  const n = 50_000 + ((salt * 7919 + k * 104_729) % 150_000);
  const out = new Uint8Array(n);
  let x = (salt * 2654435761 + k * 40503 + 1) >>> 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return out;
}

async function main(argv: string[]): Promise<void> {
  const [file, configDir, saltText] = argv;
  if (!file || !configDir || !saltText) throw new Error('usage: child.ts FILE CONFIG_DIR SALT [--saves N] [--die-at STEP]');
  const salt = Number(saltText);
  let saves = 1_000_000;
  let dieAt: SaveStep | undefined;
  for (let i = 3; i < argv.length; i++) {
    if (argv[i] === '--saves') saves = Number(argv[++i]);
    else if (argv[i] === '--die-at') {
      const s = argv[++i] as SaveStep;
      if (!SAVE_STEPS.includes(s)) throw new Error(`unknown step ${s}`);
      dieAt = s;
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  let k = 0;
  const svc = new DocumentService({
    configDir,
    onSaveStep: (step) => {
      line({ t: 'step', k, step });
      if (step === dieAt) process.kill(process.pid, 'SIGKILL');
    },
  });
  const snap = await svc.open(file);
  line({ t: 'ready', hash: sha256(svc.bytes(snap.id, 0, Number.MAX_SAFE_INTEGER)) });
  for (k = 1; k <= saves; k++) {
    await svc.screenshot(snap.id, payload(salt, k), `crash-${salt}-${k}.png`);
    line({ t: 'saving', k, hash: sha256(svc.bytes(snap.id, 0, Number.MAX_SAFE_INTEGER)) });
    await svc.save(snap.id);
    line({ t: 'saved', k });
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  line({ t: 'error', message: e instanceof Error ? e.message : String(e) });
  process.exitCode = 1;
});
