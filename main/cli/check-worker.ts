/**
 * Worker thread of `lodsmith check`: takes files from the shared queue (check-queue.ts) until it
 * is empty. It is started once per thread and keeps every codec it has loaded for the files that
 * follow.
 */
import { checkFile } from './check-file.ts';
import { serveQueue } from './check-queue.ts';

void serveQueue(checkFile);
