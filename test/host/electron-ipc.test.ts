/**
 * The Electron main process (main/electron/index.ts) as it starts, against a stand-in for the
 * electron module: every invoke channel is registered, our window's main frame is served, and a
 * request from anything else (a subframe, another window, our window after it navigated away)
 * is refused before it reaches the document service. Deleting the isTrustedSender guard around
 * the IPC handlers makes these tests fail; so does loosening the window's web preferences
 * (nodeIntegration on is a case the Electron scan does not flag while the sandbox is on).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeFile } from './fake-format.ts';
import { INVOKE_CHANNELS, type DocSnapshot, type Result } from '../../shared/ipc/contract.ts';

type Handler = (event: unknown, req: unknown) => Promise<Result<unknown>>;

const electron = vi.hoisted(() => {
  const state = {
    configDir: '',
    handlers: new Map<string, (event: unknown, req: unknown) => Promise<unknown>>(),
    windows: [] as { webContents: { url: string; mainFrame: { url: string } } }[],
    windowOptions: [] as { webPreferences?: Record<string, unknown> }[],
  };
  return state;
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class Contents extends Emitter {
    url = '';
    mainFrame = { url: '' };
    send = () => undefined;
    isLoading = () => false;
    getURL = () => this.url;
    setWindowOpenHandler = () => undefined;
  }
  class Window extends Emitter {
    webContents = new Contents();
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      super();
      electron.windows.push(this);
      electron.windowOptions.push(options);
    }
    async loadURL(url: string) {
      this.webContents.url = url;
      this.webContents.mainFrame.url = url;
    }
    isDestroyed = () => false;
    isMinimized = () => false;
    restore = () => undefined;
    focus = () => undefined;
    show = () => undefined;
    close = () => undefined;
  }
  return {
    app: {
      isPackaged: false,
      getPath: () => electron.configDir,
      getVersion: () => '1.2.3',
      requestSingleInstanceLock: () => true,
      on: () => undefined,
      whenReady: () => Promise.resolve(),
      quit: () => undefined,
      exit: () => undefined,
    },
    BrowserWindow: Window,
    dialog: {
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async () => ({ canceled: true }),
      showMessageBox: async () => ({ response: 1 }),
      showErrorBox: () => undefined,
    },
    ipcMain: { handle: (channel: string, fn: (event: unknown, req: unknown) => Promise<unknown>) => void electron.handlers.set(channel, fn) },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => undefined },
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      },
    },
    Menu: { buildFromTemplate: () => ({}), setApplicationMenu: () => undefined },
  };
});

let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lodsmith-electron-ipc-')));
  electron.configDir = join(dir, 'config');
  await writeFile(join(dir, 'm.fake'), fakeFile([{ value: 1, name: 'one' }]));
  await import('../../main/electron/index.ts');
  // start() runs once the (stand-in) app is ready: wait for the window to show our page.
  await vi.waitFor(() => expect(electron.windows[0]?.webContents.mainFrame.url).toMatch(/index\.html$/), { timeout: 10_000 });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function handler(channel: string): Handler {
  const h = electron.handlers.get(channel);
  if (!h) throw new Error(`no handler for ${channel}`);
  return h as Handler;
}

/** An IPC event as Electron would deliver it. */
function eventFrom(sender: unknown, frame: unknown) {
  return { sender, senderFrame: frame };
}

async function openDocs(): Promise<string[]> {
  const wc = electron.windows[0]!.webContents;
  const r = await handler('doc:list')(eventFrom(wc, wc.mainFrame), undefined);
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as DocSnapshot[]).map((d) => d.path);
}

describe('Electron main: the window', () => {
  it('is sandboxed and isolated, without Node, webviews or insecure content', () => {
    expect(electron.windowOptions).toHaveLength(1);
    expect(electron.windowOptions[0]!.webPreferences).toMatchObject({
      sandbox: true, contextIsolation: true, nodeIntegration: false, nodeIntegrationInWorker: false,
      webSecurity: true, allowRunningInsecureContent: false, webviewTag: false,
    });
  });
});

describe('Electron main: IPC', () => {
  it('registers a handler for every invoke channel of the contract', () => {
    expect([...electron.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it("serves our window's main frame", async () => {
    const wc = electron.windows[0]!.webContents;
    const info = await handler('app:info')(eventFrom(wc, wc.mainFrame), undefined);
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', version: '1.2.3' } });
    const opened = await handler('doc:open')(eventFrom(wc, wc.mainFrame), { path: join(dir, 'm.fake') });
    expect(opened).toMatchObject({ ok: true, value: { fileName: 'm.fake' } });
    expect(await openDocs()).toContain(join(dir, 'm.fake'));
    const closed = await handler('doc:close')(eventFrom(wc, wc.mainFrame), { id: (opened as { value: DocSnapshot }).value.id });
    expect(closed).toEqual({ ok: true, value: null });
  });

  it('refuses requests from a subframe, another window or a page we did not load, and runs none of them', async () => {
    const wc = electron.windows[0]!.webContents;
    const before = await openDocs();
    const other = Object.assign(new EventEmitter(), { mainFrame: { url: wc.url } });
    const untrusted: [string, unknown][] = [
      ['a subframe showing our page', eventFrom(wc, { url: wc.url })],
      ['another window', eventFrom(other, other.mainFrame)],
      ['no frame', eventFrom(wc, null)],
    ];
    for (const [what, event] of untrusted) {
      for (const [channel, req] of [['doc:open', { path: join(dir, 'm.fake') }], ['app:info', undefined], ['doc:saveAs', { id: 'doc-1', path: join(dir, 'x.fake') }]] as const) {
        const r = await handler(channel)(event, req);
        expect(r, `${what}: ${channel}`).toEqual({ ok: false, error: { code: 'denied', message: 'Request from an unknown page refused' } });
      }
    }
    // Our own window's main frame after it navigated elsewhere is not our page either.
    const url = wc.mainFrame.url;
    wc.mainFrame.url = 'https://example.com/index.html';
    try {
      expect(await handler('doc:open')(eventFrom(wc, wc.mainFrame), { path: join(dir, 'm.fake') })).toMatchObject({ ok: false, error: { code: 'denied' } });
    } finally {
      wc.mainFrame.url = url;
    }
    expect(await openDocs()).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual(['config', 'm.fake']);
  });
});
