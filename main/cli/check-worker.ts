/**
 * Worker thread of `lodsmith check`: receives jobs, answers with results, one at a time. It is
 * started once per thread and keeps every codec it has loaded for the files that follow.
 */
import { parentPort } from 'node:worker_threads';
import { checkFile, type CheckJob } from './check-file.ts';

parentPort?.on('message', (job: CheckJob) => {
  void checkFile(job).then((r) => parentPort!.postMessage(r));
});
