/**
 * Every user action as a named command (`file:open`, `edit:undo`, `view:wireframe`...). The
 * Electron menu sends these names over `menu:command`; the in-app menu bar, the toolbar and the
 * keyboard shortcuts run the same commands, so all entry points behave alike.
 */
import { isElectron } from '../bridge/index.ts';
import { useDocs } from './use-docs.ts';
import { useView } from './use-view.ts';
import { landInStructure } from '../lib/land-focus.ts';

export interface AppCommand {
  id: string;
  label: string;
  /** Shortcut as shown in menus (`Ctrl+S`); also what the key handler matches. */
  keys?: string;
  icon?: string;
  enabled?: () => boolean;
  checked?: () => boolean;
  /** What the command would do now ("Undo Set diffuse of material ground"), for tooltips and menus. */
  describe?: () => string | undefined;
  run: () => unknown;
}

/** Downloads bytes as a file (works in the browser host and in Electron's download handler). */
export function saveBytes(bytes: Uint8Array, fileName: string, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The commands, built over the stores of the running app. */
export function useCommands(): { list: AppCommand[]; byId: Map<string, AppCommand>; run(id: string): boolean } {
  const docs = useDocs();
  const view = useView();
  const hasDoc = () => docs.active !== null;

  async function openFile() {
    if (isElectron()) {
      const paths = await docs.call('dialog:open', undefined, 'Could not show the open dialog');
      let any = false;
      for (const p of paths ?? []) if (await docs.open(p)) any = true;
      if (any) await landInStructure();
    } else view.dialog = 'open';
  }
  async function saveAs() {
    const d = docs.active;
    if (!d) return;
    if (isElectron()) {
      // The native dialog has already asked before replacing a file.
      const p = await docs.call('dialog:save', { suggested: d.path }, 'Could not show the save dialog');
      if (p) await docs.saveAs(p, true);
    } else view.dialog = 'saveAs';
  }
  /** Formats with a screenshot block (their codec says so: LODka's IMG1). */
  const hasImg1 = () => !!docs.active?.caps?.screenshot;
  const shot = () => view.viewport?.capturePng({ helpers: view.shotHelpers, size: view.shotSize });
  async function screenshot() {
    if (!view.viewport || !docs.active || !hasImg1()) return;
    const png = await shot();
    if (png) await docs.screenshot(png, `${docs.active.fileName.replace(/\.[^.]+$/, '')}.png`);
  }
  async function exportPng() {
    const d = docs.active;
    if (!view.viewport || !d) return;
    const png = await shot();
    if (!png) return;
    const name = `${d.fileName.replace(/\.[^.]+$/, '')}.png`;
    saveBytes(png, name, 'image/png');
    docs.notice = `Saved the view as ${name} (${png.length.toLocaleString()} bytes)`;
  }
  async function exportGltf() {
    const d = docs.active;
    if (!d) return;
    let target: string | null = d.path.replace(/\.[^./\\]+$/, '') + '.glb';
    if (isElectron()) target = await docs.call('dialog:save', { suggested: target }, 'Could not show the save dialog') ?? null;
    if (!target) return;
    // The file is oriented as the viewport shows it: the user's up-axis choice, else the guess.
    const lod = view.lod.get(d.id);
    const up = view.upAxis.get(d.id);
    const path = target;
    // The native dialog has already asked before replacing a file; in the browser the window asks.
    const run = async (overwrite: boolean): Promise<void> => {
      const ok = await docs.call('doc:exportGltf', { id: d.id, path, ...(lod ? { lod } : {}), ...(up ? { up } : {}), ...(overwrite ? { overwrite } : {}) }, 'glTF export failed', true);
      if (ok !== undefined) docs.notice = `Exported ${path}`;
      else if (overwrite || !docs.askReplace(path, () => run(true))) docs.showLastError('glTF export failed');
    };
    await run(isElectron());
  }
  /** Next (+1) or previous (-1) document tab, wrapping around. */
  function cycleDoc(step: 1 | -1) {
    const list = docs.docs;
    if (list.length < 2) return;
    const i = list.findIndex((d) => d.id === docs.activeId);
    docs.activate(list[(i + step + list.length) % list.length]!.id);
  }
  const toggle = (key: 'wireframe' | 'normals' | 'bounds' | 'grid' | 'skeleton' | 'colliders' | 'proxies' | 'placeholders') => () => {
    view[key] = !view[key];
  };

  const list: AppCommand[] = [
    { id: 'file:open', label: 'Open…', keys: 'Ctrl+O', icon: 'open', run: openFile },
    { id: 'file:openSample', label: 'Open Sample Model', icon: 'sample', run: async () => {
      if (await docs.openSample()) await landInStructure();
    } },
    // A dropped file has no file to save to: Save asks where, as Save As does.
    { id: 'file:save', label: 'Save', keys: 'Ctrl+S', icon: 'save', enabled: hasDoc, run: () => (docs.active?.readOnly ? saveAs() : docs.save()) },
    { id: 'file:saveAs', label: 'Save As…', keys: 'Ctrl+Shift+S', icon: 'save-as', enabled: hasDoc, run: saveAs },
    { id: 'file:revert', label: 'Revert to Saved', icon: 'revert', enabled: () => !!docs.active?.dirty, run: () => docs.revert() },
    { id: 'file:newFromGltf', label: 'New from glTF…', keys: 'Ctrl+Shift+I', icon: 'import', run: () => (view.gltfDialog = { file: null }) },
    { id: 'file:exportGltf', label: 'Export glTF Binary…', keys: 'Ctrl+E', icon: 'glb', enabled: hasDoc, run: exportGltf },
    { id: 'file:settings', label: 'Settings…', keys: 'Ctrl+,', icon: 'settings', run: () => (view.settingsDialog = true) },
    { id: 'file:close', label: 'Close', keys: 'Ctrl+W', icon: 'close', enabled: hasDoc, run: () => docs.active && docs.close(docs.active.id) },
    { id: 'edit:undo', label: 'Undo', keys: 'Ctrl+Z', icon: 'undo', enabled: () => !!docs.active?.canUndo, describe: () => docs.active?.undoLabel, run: () => docs.undo() },
    { id: 'edit:redo', label: 'Redo', keys: 'Ctrl+Y', icon: 'redo', enabled: () => !!docs.active?.canRedo, describe: () => docs.active?.redoLabel, run: () => docs.redo() },
    { id: 'edit:history', label: 'Undo History', icon: 'revert', enabled: hasDoc, run: () => (view.bottomTab = 'history') },
    { id: 'view:nextDoc', label: 'Next Document', keys: 'Ctrl+Tab', enabled: () => docs.docs.length > 1, run: () => cycleDoc(1) },
    { id: 'view:prevDoc', label: 'Previous Document', keys: 'Ctrl+Shift+Tab', enabled: () => docs.docs.length > 1, run: () => cycleDoc(-1) },
    { id: 'edit:replacePaths', label: 'Find and Replace Paths…', keys: 'Ctrl+H', icon: 'search', enabled: hasDoc, run: () => (view.repathDialog = true) },
    { id: 'edit:find', label: 'Find in Structure', keys: 'Ctrl+F', icon: 'search', enabled: hasDoc, run: () => document.querySelector<HTMLInputElement>('[data-testid="tree-filter"]')?.focus() },
    { id: 'view:frame', label: 'Frame Selection', keys: 'F', icon: 'frame', enabled: hasDoc, run: () => view.viewport?.frameSelection() },
    { id: 'view:frameAll', label: 'Frame All', keys: 'Shift+F', enabled: hasDoc, run: () => view.viewport?.frameAll() },
    { id: 'view:wireframe', label: 'Wireframe', keys: 'Alt+W', icon: 'wireframe', checked: () => view.wireframe, run: toggle('wireframe') },
    { id: 'view:normals', label: 'Normals', keys: 'Alt+N', icon: 'normals', checked: () => view.normals, run: toggle('normals') },
    { id: 'view:bounds', label: 'Bounds', keys: 'Alt+B', icon: 'bounds', checked: () => view.bounds, run: toggle('bounds') },
    { id: 'view:grid', label: 'Grid', keys: 'Alt+G', icon: 'grid', checked: () => view.grid, run: toggle('grid') },
    { id: 'view:skeleton', label: 'Skeleton', keys: 'Alt+K', icon: 'skeleton', checked: () => view.skeleton, run: toggle('skeleton') },
    { id: 'view:colliders', label: 'Colliders', keys: 'Alt+C', icon: 'colliders', checked: () => view.colliders, run: toggle('colliders') },
    { id: 'view:proxies', label: 'Proxy Markers', keys: 'Alt+X', icon: 'proxy', checked: () => view.proxies, run: toggle('proxies') },
    { id: 'view:placeholders', label: 'Proxy Placeholder Faces', icon: 'placeholder', checked: () => view.placeholders, run: toggle('placeholders') },
    { id: 'view:screenshot', label: 'Store Screenshot in Model (IMG1)', keys: 'Ctrl+Shift+P', icon: 'camera', enabled: hasImg1, run: screenshot },
    { id: 'view:exportPng', label: 'Export View as PNG…', icon: 'png', enabled: hasDoc, run: exportPng },
  ];
  const byId = new Map(list.map((c) => [c.id, c]));
  return {
    list,
    byId,
    run(id: string): boolean {
      const c = byId.get(id);
      if (!c || (c.enabled && !c.enabled())) return false;
      void c.run();
      return true;
    },
  };
}

/** Menu and tooltip text of a command: its label with what it would do now ("Undo Set …"). */
export function commandTitle(c: AppCommand): string {
  const what = c.describe?.();
  return what ? `${c.label} ${what}` : c.label;
}

/** `Ctrl+Shift+S` style name of a key event (Cmd counts as Ctrl on macOS). */
export function keyName(e: KeyboardEvent): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('Ctrl');
  if (e.altKey) parts.push('Alt');
  if (e.shiftKey) parts.push('Shift');
  const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (!['Control', 'Meta', 'Alt', 'Shift'].includes(k)) parts.push(k);
  return parts.join('+');
}

/** Extra accepted spellings of shortcuts. */
export const KEY_ALIASES: Record<string, string> = {
  'Ctrl+Shift+Z': 'edit:redo',
  // Browsers keep Ctrl+Tab and Ctrl+W for their own tabs; these work in every browser.
  'Ctrl+PageDown': 'view:nextDoc', 'Ctrl+PageUp': 'view:prevDoc', 'Alt+PageDown': 'view:nextDoc', 'Alt+PageUp': 'view:prevDoc',
  // Single keys for the view, as in most 3D tools; only when no text field has the focus.
  W: 'view:wireframe', N: 'view:normals', B: 'view:bounds', G: 'view:grid', K: 'view:skeleton', C: 'view:colliders',
  A: 'view:frameAll',
};
