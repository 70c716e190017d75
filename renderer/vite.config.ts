/**
 * Vite config of the renderer. Also used by electron-vite's renderer section and by the browser
 * host (`npm run serve`), so it stays free of Electron specifics: relative base so the bundle
 * loads from file:// as well as from the host's HTTP server.
 */
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

// Vite keeps import.meta.url pointing at this file when it bundles the config, so the root is
// right whatever the caller's working directory (no node:url here: renderer/ stays browser-only).
const here = decodeURIComponent(new URL('.', import.meta.url).pathname).replace(/^\/([A-Za-z]:)/, '$1');

export default defineConfig({
  root: here,
  base: './',
  plugins: [vue()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: { host: '127.0.0.1' },
});
