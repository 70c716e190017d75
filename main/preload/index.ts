/**
 * The preload: exposes `window.lodsmith` (LodsmithApi) and nothing else. Bundled to one CommonJS
 * file because sandboxed preloads cannot load modules. Channels outside the contract are refused
 * here already; main validates every request again on arrival.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNELS, INVOKE_CHANNELS, type EventChannel, type EventMap, type LodsmithApi, type Result } from '../../shared/ipc/contract.ts';

const invokeChannels = new Set<string>(INVOKE_CHANNELS);
const eventChannels = new Set<string>(EVENT_CHANNELS);

const api: LodsmithApi = {
  invoke(channel, req) {
    if (!invokeChannels.has(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'invalid', message: `Unknown channel ${String(channel)}` } });
    }
    return (ipcRenderer.invoke(channel, req) as Promise<Result<never>>).catch((e: unknown) => ({
      ok: false as const,
      error: { code: 'internal' as const, message: e instanceof Error ? e.message : String(e) },
    }));
  },
  on<C extends EventChannel>(channel: C, listener: (payload: EventMap[C]) => void) {
    if (!eventChannels.has(channel)) return () => undefined;
    // The event object is not passed on: it would hand the page a handle on ipcRenderer.
    const handler = (_e: IpcRendererEvent, payload: EventMap[C]) => listener(payload);
    ipcRenderer.on(channel, handler);
    return () => {
      ipcRenderer.removeListener(channel, handler);
    };
  },
};

contextBridge.exposeInMainWorld('lodsmith', api);
