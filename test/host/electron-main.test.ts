/**
 * The Electron-side pieces that can be checked without the Electron binary: the preload's
 * exposed API and the window hardening, against a stand-in for the electron module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';

const exposed: Record<string, unknown> = {};
const ipcRenderer = Object.assign(new EventEmitter(), { invoke: vi.fn(async (_c: string, _r: unknown) => ({ ok: true, value: 'answer' })) });
const headerHooks: ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void)[] = [];
const permissionHandlers: { request?: (wc: unknown, p: string, cb: (ok: boolean) => void) => void; check?: () => boolean } = {};

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api) },
  ipcRenderer,
  session: {
    defaultSession: {
      webRequest: { onHeadersReceived: (fn: (typeof headerHooks)[number]) => void headerHooks.push(fn) },
      setPermissionRequestHandler: (fn: typeof permissionHandlers.request) => void (permissionHandlers.request = fn),
      setPermissionCheckHandler: (fn: typeof permissionHandlers.check) => void (permissionHandlers.check = fn),
    },
  },
}));

interface Api {
  invoke(channel: string, req: unknown): Promise<unknown>;
  on(channel: string, listener: (...args: unknown[]) => void): () => void;
}

describe('preload', () => {
  beforeEach(() => ipcRenderer.invoke.mockClear());

  it('exposes window.lodsmith with invoke and on, and nothing else', async () => {
    await import('../../main/preload/index.ts');
    expect(Object.keys(exposed)).toEqual(['lodsmith']);
    expect(Object.keys(exposed.lodsmith as object).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract channels and refuses others without touching IPC', async () => {
    const api = exposed.lodsmith as Api;
    expect(await api.invoke('doc:list', undefined)).toEqual({ ok: true, value: 'answer' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('doc:list', undefined);
    expect(await api.invoke('fs:delete', {})).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(ipcRenderer.invoke).toHaveBeenCalledTimes(1);
    ipcRenderer.invoke.mockRejectedValueOnce(new Error('main went away'));
    expect(await api.invoke('doc:list', undefined)).toEqual({ ok: false, error: { code: 'internal', message: 'main went away' } });
  });

  it('delivers event payloads without the IPC event object, and unsubscribes', async () => {
    const api = exposed.lodsmith as Api;
    const got: unknown[][] = [];
    const off = api.on('doc:closed', (...args) => got.push(args));
    ipcRenderer.emit('doc:closed', { sender: 'secret' }, { id: 'doc-1' });
    expect(got).toEqual([[{ id: 'doc-1' }]]);
    off();
    ipcRenderer.emit('doc:closed', {}, { id: 'doc-2' });
    expect(got).toHaveLength(1);
    api.on('not:an-event', () => got.push(['wrong']));
    expect(ipcRenderer.listenerCount('not:an-event')).toBe(0);
  });
});

class FakeContents extends EventEmitter {
  url = 'file:///app/out/renderer/index.html';
  mainFrame = { url: this.url };
  openHandler?: () => { action: string };
  setWindowOpenHandler(fn: () => { action: string }) {
    this.openHandler = fn;
  }
  getURL() {
    return this.url;
  }
}

function navEvent() {
  return { prevented: false, preventDefault() { this.prevented = true; } };
}

describe('window hardening', () => {
  it('sets a CSP header and denies every permission', async () => {
    const { hardenSession, CONTENT_SECURITY_POLICY } = await import('../../main/electron/security.ts');
    hardenSession();
    let headers: unknown;
    headerHooks[0]!({ responseHeaders: { 'x-a': ['1'] } }, (r) => (headers = r));
    expect(headers).toEqual({ responseHeaders: { 'x-a': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    let granted: boolean | undefined;
    permissionHandlers.request!({}, 'media', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(permissionHandlers.check!()).toBe(false);
  });

  it('refuses new windows, navigation, redirects and webviews; a dropped file is opened instead', async () => {
    const { hardenContents } = await import('../../main/electron/security.ts');
    const wc = new FakeContents();
    const dropped: string[] = [];
    hardenContents(wc as never, (p) => dropped.push(p));
    expect(wc.openHandler!()).toEqual({ action: 'deny' });
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const e = navEvent();
      wc.emit(name, e, 'https://example.com/');
      expect(e.prevented, name).toBe(true);
    }
    expect(dropped).toEqual([]);
    const drop = navEvent();
    wc.emit('will-navigate', drop, 'file:///home/me/models/tank%20v2.p3d');
    expect(drop.prevented).toBe(true);
    expect(dropped).toEqual(['/home/me/models/tank v2.p3d']);
  });

  it('accepts IPC only from our window main frame showing our page', async () => {
    const { isTrustedSender } = await import('../../main/electron/security.ts');
    const wc = new FakeContents();
    const page = wc.url;
    const ev = (sender: unknown, frame: unknown) => ({ sender, senderFrame: frame }) as never;
    expect(isTrustedSender(ev(wc, wc.mainFrame), wc as never, page)).toBe(true);
    expect(isTrustedSender(ev(new FakeContents(), wc.mainFrame), wc as never, page)).toBe(false);
    expect(isTrustedSender(ev(wc, { url: page }), wc as never, page)).toBe(false); // a subframe
    expect(isTrustedSender(ev(wc, null), wc as never, page)).toBe(false);
    expect(isTrustedSender(ev(wc, wc.mainFrame), undefined, page)).toBe(false);
    wc.mainFrame.url = 'https://example.com/index.html';
    expect(isTrustedSender(ev(wc, wc.mainFrame), wc as never, page)).toBe(false);
    wc.mainFrame.url = 'file:///elsewhere/index.html';
    expect(isTrustedSender(ev(wc, wc.mainFrame), wc as never, page)).toBe(false);
    wc.mainFrame.url = `${page}?open=models%2Fa.lod#x`;
    expect(isTrustedSender(ev(wc, wc.mainFrame), wc as never, page)).toBe(true);
  });
});
