/**
 * A stand-in for the check worker that misbehaves on demand, by file name: `hang` never answers,
 * `crash` exits the thread, `boom` throws; anything else answers ok.
 */
import { parentPort } from 'node:worker_threads';
import type { CheckJob, CheckResult } from '../../../main/cli/check-file.ts';

parentPort?.on('message', (job: CheckJob) => {
  if (job.file.includes('hang')) for (;;);
  if (job.file.includes('crash')) process.exit(3);
  if (job.file.includes('boom')) throw new Error('boom');
  const r: CheckResult = { file: job.file, bytes: 1, result: 'ok', ms: 0 };
  parentPort!.postMessage(r);
});
