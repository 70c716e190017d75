/**
 * Entry of the prebuilt `lodsmith check` worker (out/cli/check-worker.cjs): turns on Node's
 * module compile cache before the worker's code is loaded, so each thread after the first finds
 * the codecs compiled (the main thread does the same in bin/lodsmith.cjs).
 */
import module from 'node:module';

module.enableCompileCache?.();
// Not awaited: the prebuilt worker is CommonJS, which has no top-level await.
void import('./check-worker.ts');
