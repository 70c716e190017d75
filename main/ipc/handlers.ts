/**
 * The invoke channels mapped onto the document service. Electron's ipcMain and the browser
 * host's HTTP API both call {@link createDispatcher}: one place validates requests, one place
 * turns exceptions into `Result` errors, so both transports behave identically.
 */
import type { AppError, InvokeChannel, InvokeMap, Req, Res, Result } from '../../shared/ipc/contract.ts';
import { toAppError } from '../documents/app-error.ts';
import type { DocumentService } from '../documents/document-service.ts';
import { validateRequest } from './validate.ts';

/** What differs between the desktop app and the browser host. */
export interface Platform {
  host: 'electron' | 'browser';
  version: string;
  /** Root folders shown to the user (browser host), empty in Electron. */
  roots(): string[];
  openDialog(): Promise<string[]>;
  saveDialog(suggested: string): Promise<string | null>;
}

type Handlers = { [C in InvokeChannel]: (req: Req<C>) => Promise<Res<C>> | Res<C> };

function handlers(svc: DocumentService, platform: Platform): Handlers {
  return {
    'app:info': () => ({ version: platform.version, host: platform.host, sample: svc.samplePath() ? svc.paths.display(svc.samplePath()!) : null, roots: platform.roots(), importTargets: svc.importTargets(), extensions: svc.openableExtensions() }),
    'app:recent': () => svc.recentFiles(),
    'settings:get': () => svc.getSettings(),
    'settings:set': (r) => svc.setSettings(r),
    'fs:list': (r) => svc.listDir(r.dir),
    'dialog:open': () => platform.openDialog(),
    'dialog:save': (r) => platform.saveDialog(r.suggested),
    'doc:open': (r) => (r.scene ? svc.openWithScene(r.path, r.maxMemory) : svc.open(r.path, r.maxMemory)),
    'doc:openSample': () => svc.openSample(),
    'doc:list': () => svc.list(),
    'doc:close': (r) => svc.close(r.id),
    'doc:inspect': (r) => svc.inspect(r.id, r.path),
    'doc:scene': (r) => svc.scene(r.id, r.lod),
    'doc:sourcePose': (r) => svc.sourcePose(r.id, r.lod, r.values),
    'doc:sourceConfig': (r) => svc.sourceConfig(r.id, r.path),
    'doc:query': (r) => svc.query(r.id, r.query),
    'doc:bytes': (r) => svc.bytes(r.id, r.start, r.end),
    'doc:edit': (r) => svc.edit(r.id, r.command),
    'doc:create': (r) => svc.create(r.id, r.parent, r.kind),
    'doc:undo': (r) => svc.undo(r.id),
    'doc:redo': (r) => svc.redo(r.id),
    'doc:goto': (r) => svc.goto(r.id, r.at),
    'doc:openBytes': (r) => svc.openBytes(r.name, r.bytes),
    'doc:find': (r) => svc.find(r.id, r.query),
    'doc:save': (r) => svc.save(r.id, r.options),
    'doc:saveAs': (r) => svc.saveAs(r.id, r.path, r.overwrite === true),
    'doc:revert': (r) => svc.revert(r.id),
    'doc:exportNode': (r) => svc.exportNode(r.id, r.path),
    'doc:importNode': (r) => svc.importNode(r.id, r.path, r.bytes),
    'doc:screenshot': (r) => svc.screenshot(r.id, r.png, r.name),
    'doc:texture': (r) => svc.texture(r.id, r.name),
    'doc:exportGltf': (r) => svc.exportGltf(r.id, r.path, r.lod, r.up, r.overwrite === true),
    'doc:attachAnimation': (r) => svc.attachAnimation(r.id, r.path),
    'doc:attachAnimationBytes': (r) => svc.attachAnimationBytes(r.id, r.name, r.bytes),
    'doc:detachAnimation': (r) => svc.detachAnimation(r.id, r.index),
    'doc:animationCandidates': (r) => svc.animationCandidates(r.id),
    'texture:read': (r) => svc.readTexture(r.path, r.mip ?? 0, r.maxMemory),
    'texture:replace': (r) => svc.replaceTexture(r.path, r.png, r.format, r.maxMemory),
    'texture:undo': (r) => svc.undoTextureReplace(r.path, r.maxMemory),
    'doc:newFromGltf': (r) => svc.newFromGltf(r.bytes, r.name, r.path, { version: r.version, anim: r.anim }),
    'doc:replaceFromGltf': (r) => svc.replaceFromGltf(r.id, r.path, r.bytes, r.name),
  };
}

/** Validates and runs one request; never throws. */
export type Dispatch = (channel: string, req: unknown) => Promise<Result<unknown>>;

/**
 * Builds the dispatcher. `onError` sees unexpected ('internal') failures so they are logged
 * where a developer can find them; the renderer still gets a plain AppError.
 */
export function createDispatcher(svc: DocumentService, platform: Platform, onError?: (channel: string, e: unknown) => void): Dispatch {
  const table = handlers(svc, platform) as unknown as Record<string, (req: unknown) => unknown>;
  return async (channel, req) => {
    const v = validateRequest(channel, req);
    if (!v.ok) return { ok: false, error: v.error };
    try {
      const value = await table[channel]!(v.value);
      return { ok: true, value: value === undefined ? null : value };
    } catch (e) {
      const error: AppError = toAppError(e);
      if (error.code === 'internal') onError?.(channel, e);
      return { ok: false, error };
    }
  };
}

/** Typed convenience for main-side callers (menus, command line) that invoke a channel directly. */
export async function invoke<C extends InvokeChannel>(dispatch: Dispatch, channel: C, req: Req<C>): Promise<Result<InvokeMap[C]['res']>> {
  return (await dispatch(channel, req)) as Result<InvokeMap[C]['res']>;
}
