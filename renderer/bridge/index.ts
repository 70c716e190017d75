/**
 * The one place that knows where the document services live: the Electron preload exposes
 * `window.lodsmith`; in an ordinary browser the app talks to the local host process instead.
 * Everything else asks {@link api} and never touches either directly.
 */
import type { LodsmithApi } from '../../shared/ipc/contract.ts';
import { createHostClient } from './host-client.ts';

declare global {
  interface Window {
    lodsmith?: LodsmithApi;
  }
}

let current: LodsmithApi | undefined;

/** Replaces the API (unit tests and the in-memory development mode). */
export function setApi(a: LodsmithApi): void {
  current = a;
}

/** The API of this window: the preload's in Electron, the host client in a browser. */
export function api(): LodsmithApi {
  if (!current) current = window.lodsmith ?? createHostClient();
  return current;
}

/** True when running inside Electron (native dialogs and menus are available). */
export function isElectron(): boolean {
  return typeof window !== 'undefined' && window.lodsmith !== undefined;
}
