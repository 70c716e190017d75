/**
 * Entry of the prebuilt `lodsmith check` worker (out/cli/check-worker.mjs): turns on Node's
 * module compile cache before the worker's code is loaded, so each thread after the first finds
 * the codecs compiled (the main thread does the same in bin/lodsmith.mjs).
 */
import module from 'node:module';

module.enableCompileCache?.();
await import('./check-worker.ts');
