/**
 * A stand-in for the check worker that misbehaves on demand, by file name: `hang` never answers,
 * `crash` exits the thread, `boom` throws, `slow` works 20 ms (`slower`: 300 ms) first; anything
 * else answers ok at once. It takes jobs from the same shared queue as the real worker. A job
 * whose `abs` names a `.log` file gets a line `thread file start end` (ms since the epoch)
 * appended there before it answers: the pool tests read it while the main thread is blocked.
 */
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import type { CheckJob, CheckResult } from '../../../main/cli/check-file.ts';
import { serveQueue } from '../../../main/cli/check-queue.ts';

void serveQueue((job: CheckJob): CheckResult => {
  if (job.file.includes('hang')) for (;;);
  if (job.file.includes('crash')) process.exit(3);
  if (job.file.includes('boom')) throw new Error('boom');
  const start = performance.timeOrigin + performance.now();
  const work = job.file.includes('slower') ? 300 : job.file.includes('slow') ? 20 : 0;
  while (performance.timeOrigin + performance.now() < start + work);
  if (job.abs.endsWith('.log')) appendFileSync(job.abs, `${threadId} ${job.file} ${start} ${performance.timeOrigin + performance.now()}\n`);
  return { file: job.file, bytes: 1, result: 'ok', ms: 0 };
});
