/**
 * Hardening of every window and web contents: no navigation, no new windows, no webviews, no
 * permissions, a strict Content-Security-Policy header, and IPC accepted only from our own
 * window's main frame showing our own page.
 */
import { session, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from './csp.ts';

/** The policy for the renderer; the page's own meta tag says the same for file:// loads. */
export { CONTENT_SECURITY_POLICY };

/** Applies the session-wide rules once: CSP header, all permissions denied. */
export function hardenSession(): void {
  const s = session.defaultSession;
  s.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
}

/**
 * Locks a web contents down. `onFileDrop` receives a local file the user dropped on the window
 * (Chromium turns a drop into a navigation to its file URL, which is refused and opened instead).
 */
export function hardenContents(wc: WebContents, onFileDrop: (path: string) => void): void {
  wc.setWindowOpenHandler(() => ({ action: 'deny' }));
  wc.on('will-navigate', (e, url) => {
    e.preventDefault();
    if (url.startsWith('file://') && url !== wc.getURL()) {
      try {
        onFileDrop(decodeURIComponent(new URL(url).pathname.replace(/^\/([A-Za-z]:)/, '$1')));
      } catch {
        /* not a path */
      }
    }
  });
  wc.on('will-redirect', (e) => e.preventDefault());
  wc.on('will-attach-webview', (e) => e.preventDefault());
}

/** True when an IPC message comes from `wc`'s main frame showing the page at `pageUrl`'s origin and path. */
export function isTrustedSender(event: IpcMainInvokeEvent, wc: WebContents | undefined, pageUrl: string): boolean {
  if (!wc || event.sender !== wc) return false;
  const frame = event.senderFrame;
  if (!frame || frame !== wc.mainFrame) return false;
  try {
    const got = new URL(frame.url);
    const want = new URL(pageUrl);
    return got.protocol === want.protocol && got.host === want.host && got.pathname === want.pathname;
  } catch {
    return false;
  }
}
