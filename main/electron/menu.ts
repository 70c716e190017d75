/**
 * The application menu. Items do not act themselves: they send `menu:command` with the same
 * command ids the renderer's command palette and toolbar use, so one code path runs a command
 * whichever way it was started.
 */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import { basename } from 'node:path';

export interface MenuHooks {
  command(id: string): void;
  openRecent(path: string): void;
  about(): void;
}

/** Builds and installs the menu; call again when the recent list changes. */
export function installMenu(hooks: MenuHooks, recent: string[]): void {
  const cmd = (label: string, id: string, accelerator?: string): MenuItemConstructorOptions => ({
    label, click: () => hooks.command(id), ...(accelerator ? { accelerator } : {}),
  });
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        cmd('Open…', 'file:open', 'CmdOrCtrl+O'),
        {
          label: 'Open Recent',
          submenu: recent.length
            ? recent.map((p) => ({ label: basename(p), sublabel: p, toolTip: p, click: () => hooks.openRecent(p) }))
            : [{ label: 'No recent files', enabled: false }],
        },
        cmd('Open Sample Model', 'file:openSample'),
        cmd('New from glTF…', 'file:newFromGltf', 'CmdOrCtrl+Shift+I'),
        { type: 'separator' },
        cmd('Save', 'file:save', 'CmdOrCtrl+S'),
        cmd('Save As…', 'file:saveAs', 'CmdOrCtrl+Shift+S'),
        cmd('Revert', 'file:revert'),
        { type: 'separator' },
        cmd('Export glTF…', 'file:exportGltf', 'CmdOrCtrl+E'),
        { type: 'separator' },
        cmd('Settings…', 'file:settings', 'CmdOrCtrl+,'),
        { type: 'separator' },
        cmd('Close', 'file:close', 'CmdOrCtrl+W'),
        ...(isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
      ],
    },
    {
      label: '&Edit',
      submenu: [
        cmd('Undo', 'edit:undo', 'CmdOrCtrl+Z'),
        cmd('Redo', 'edit:redo', isMac ? 'Cmd+Shift+Z' : 'Ctrl+Y'),
        { type: 'separator' },
        // Text fields in the inspector still need the clipboard.
        { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' },
        { type: 'separator' },
        cmd('Find…', 'edit:find', 'CmdOrCtrl+F'),
        cmd('Find and Replace Paths…', 'edit:replacePaths', 'CmdOrCtrl+H'),
        cmd('Undo History', 'edit:history'),
      ],
    },
    {
      label: '&View',
      // No single-key accelerators: they would swallow those letters in the inspector's text
      // fields. The page handles W, N, B, G, F and A itself when no field has focus.
      submenu: [
        cmd('Next Document', 'view:nextDoc', 'Ctrl+Tab'),
        cmd('Previous Document', 'view:prevDoc', 'Ctrl+Shift+Tab'),
        { type: 'separator' },
        cmd('Wireframe', 'view:wireframe'),
        cmd('Normals', 'view:normals'),
        cmd('Bounds', 'view:bounds'),
        cmd('Grid', 'view:grid'),
        cmd('Skeleton', 'view:skeleton'),
        cmd('Colliders', 'view:colliders'),
        cmd('Proxy Markers', 'view:proxies'),
        cmd('Proxy Placeholder Faces', 'view:placeholders'),
        { type: 'separator' },
        cmd('Frame Selection', 'view:frame'),
        cmd('Frame All', 'view:frameAll'),
        { type: 'separator' },
        cmd('Store Screenshot in Model (IMG1)', 'view:screenshot'),
        cmd('Export View as PNG…', 'view:exportPng'),
        { type: 'separator' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { role: 'togglefullscreen' },
      ],
    },
    { label: '&Help', submenu: [{ label: 'About LodSmith', click: () => hooks.about() }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
