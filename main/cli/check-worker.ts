/** Worker thread of `lodsmith check`: receives jobs, answers with results, one at a time. */
import { parentPort } from 'node:worker_threads';
import { checkFile, type CheckJob } from './check-file.ts';

parentPort?.on('message', (job: CheckJob) => {
  parentPort!.postMessage(checkFile(job));
});
