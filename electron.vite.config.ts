/**
 * electron-vite builds three bundles into out/: main (ESM, this package is "type": "module"),
 * the preload as ONE CommonJS file (sandboxed preloads cannot import), and the renderer with the
 * renderer's own Vite config. Dependencies are bundled into main so the packaged app needs no
 * node_modules.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { mergeConfig } from 'vite';
import rendererConfig from './renderer/vite.config.ts';

const r = (...p: string[]) => resolve(import.meta.dirname ?? process.cwd(), ...p);

export default defineConfig({
  main: {
    build: {
      outDir: r('out/main'),
      externalizeDeps: false,
      lib: { entry: r('main/electron/index.ts'), formats: ['es'], fileName: () => 'index.js' },
    },
  },
  preload: {
    build: {
      outDir: r('out/preload'),
      externalizeDeps: false,
      isolatedEntries: true,
      lib: { entry: r('main/preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: mergeConfig(rendererConfig, {
    root: r('renderer'),
    build: { outDir: r('out/renderer'), emptyOutDir: true, rollupOptions: { input: r('renderer/index.html') } },
  }),
});
