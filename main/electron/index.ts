/**
 * Electron main process: one window per app instance, the document service behind IPC, the
 * menu, and files arriving from the command line, a second instance, the dock or a drop.
 * With no file, the bundled sample opens so a first start shows something to explore.
 */
import { app, BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { INVOKE_CHANNELS, type EventChannel, type EventMap } from '../../shared/ipc/contract.ts';
import { allFormats } from '../../shared/formats/index.ts';
import { DocumentService } from '../documents/document-service.ts';
import { defaultGltfWriter } from '../documents/gltf-writer.ts';
import { parseLaunchArgs } from '../documents/launch-args.ts';
import { createDispatcher } from '../ipc/handlers.ts';
import { installMenu } from './menu.ts';
import { hardenContents, hardenSession, isTrustedSender } from './security.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** out/main -> the bundle's siblings (out/preload, out/renderer). */
const outDir = resolve(here, '..');
const PRELOAD = join(outDir, 'preload', 'index.cjs');
const RENDERER_HTML = join(outDir, 'renderer', 'index.html');
/** electron-builder copies build/sample to resources/sample; in development it is the repo's. */
const SAMPLE = app.isPackaged ? join(process.resourcesPath, 'sample', 'sample.lod') : resolve(outDir, '..', 'build', 'sample', 'sample.lod');

let win: BrowserWindow | undefined;
let pageUrl = '';
/** Files asked for before the window could take them. */
const pending: string[] = [];

function emit<C extends EventChannel>(channel: C, payload: EventMap[C]): void {
  if (win && !win.isDestroyed()) win.webContents.send(channel, payload);
}

const service = new DocumentService({
  configDir: app.getPath('userData'),
  emit,
  samplePath: existsSync(SAMPLE) ? SAMPLE : null,
  gltf: defaultGltfWriter,
  prefetchTextures: true,
});

const modelExtensions = () => [...new Set(allFormats().flatMap((f) => f.extensions.map((e) => e.slice(1))))];

const dispatch = createDispatcher(service, {
  host: 'electron',
  version: app.getVersion(),
  roots: () => [],
  async openDialog() {
    if (!win) return [];
    const r = await dialog.showOpenDialog(win, {
      title: 'Open model',
      properties: ['openFile', 'multiSelections'],
      filters: [{ name: 'Models', extensions: modelExtensions() }, { name: 'All files', extensions: ['*'] }],
    });
    return r.canceled ? [] : r.filePaths;
  },
  async saveDialog(suggested) {
    if (!win) return null;
    // The dialog asks before replacing a file (Linux only does when told to), so the renderer then
    // sends `overwrite: true`; the write policy (main/documents/write-policy.ts) still applies.
    const r = await dialog.showSaveDialog(win, { defaultPath: suggested, properties: ['showOverwriteConfirmation', 'createDirectory'] });
    return r.canceled || !r.filePath ? null : r.filePath;
  },
}, (channel, e) => console.error(`internal error on ${channel}:`, e));

async function refreshMenu(): Promise<void> {
  installMenu({
    command: (command) => emit('menu:command', { command }),
    openRecent: (path) => requestOpen(path),
    about: () => {
      void dialog.showMessageBox({ type: 'info', title: 'About LodSmith', message: `LodSmith ${app.getVersion()}`, detail: 'Editor for binary game model files: LODka 3D, Arma/OFP P3D, Legend of Grimrock, Unigine.' });
    },
  }, await service.recentFiles());
}

/** A file from outside (second instance, dock, drop, Open Recent): the renderer opens it and shows errors. */
function requestOpen(path: string): void {
  if (win && !win.webContents.isLoading()) emit('app:openRequested', { path });
  else pending.push(path);
  if (win?.isMinimized()) win.restore();
  win?.focus();
}

/**
 * File arguments: everything after the app (packaged) or after the main script (development);
 * `--anim ANIM` (repeatable) names animation files to attach to the last model.
 */
function launchArgs(argv: string[]): { files: string[]; anims: string[] } {
  return parseLaunchArgs(argv.slice(app.isPackaged ? 1 : 2));
}
function fileArgs(argv: string[]): string[] {
  return launchArgs(argv).files;
}

function registerIpc(): void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, req: unknown) => {
      if (!isTrustedSender(event, win?.webContents, pageUrl)) {
        return { ok: false, error: { code: 'denied', message: 'Request from an unknown page refused' } };
      }
      const result = await dispatch(channel, req);
      if (result.ok && (channel === 'doc:open' || channel === 'doc:saveAs' || channel === 'doc:openSample')) void refreshMenu();
      return result;
    });
  }
}

async function createWindow(): Promise<void> {
  win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    title: 'LodSmith',
    show: false,
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: PRELOAD,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // A middle click would otherwise ask for a new window (refused anyway by the open handler).
      disableBlinkFeatures: 'Auxclick',
      // A dropped file becomes a navigation we refuse and turn into an open (see security.ts).
      navigateOnDragDrop: true,
    },
  });
  win.once('ready-to-show', () => win?.show());
  win.webContents.on('did-finish-load', () => {
    for (const p of pending.splice(0)) emit('app:openRequested', { path: p });
  });
  let closing = false;
  win.on('close', (e) => {
    if (closing) return;
    // Decided asynchronously (the service is asked for dirty documents), so close only after.
    e.preventDefault();
    void (async () => {
      const dirty = (await service.list()).filter((d) => d.dirty);
      if (dirty.length > 0 && win) {
        const r = await dialog.showMessageBox(win, {
          type: 'warning', buttons: ['Discard changes', 'Cancel'], defaultId: 1, cancelId: 1,
          message: `${dirty.length} document(s) have unsaved changes`, detail: dirty.map((d) => d.path).join('\n'),
        });
        if (r.response !== 0) return;
      }
      closing = true;
      win?.close();
    })();
  });
  win.on('closed', () => {
    win = undefined;
  });
  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  pageUrl = devUrl ?? pathToFileURL(RENDERER_HTML).href;
  await win.loadURL(pageUrl);
}

async function start(): Promise<void> {
  hardenSession();
  registerIpc();
  // Files given on the command line are open before the page asks for its documents; the sample
  // when there are none. Failures are left to the renderer, which shows them with offset and path.
  const { files, anims } = launchArgs(process.argv);
  let opened: string | undefined;
  for (const f of files) {
    const r = await dispatch('doc:open', { path: f });
    if (!r.ok) pending.push(f);
    else opened = (r.value as { id: string }).id;
  }
  // `--anim`: attached to the last model opened; a failure is reported like a failed open.
  for (const a of anims) {
    const r = opened ? await dispatch('doc:attachAnimation', { id: opened, path: a }) : undefined;
    if (!r?.ok) console.error(`LodSmith: could not attach ${a}: ${r && !r.ok ? r.error.message : 'no model was opened'}`);
  }
  if (files.length === 0) await dispatch('doc:openSample', undefined);
  await refreshMenu();
  await createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_e, argv) => {
    for (const f of fileArgs(argv)) requestOpen(f);
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });
  // macOS: files dropped on the dock icon or opened from Finder.
  app.on('open-file', (e, path) => {
    e.preventDefault();
    requestOpen(path);
  });
  app.on('web-contents-created', (_e, wc) => hardenContents(wc, (p) => requestOpen(p)));
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!win) void createWindow();
  });
  app.whenReady().then(start).catch((e: unknown) => {
    dialog.showErrorBox('LodSmith could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
}
