/**
 * The renderer's Content-Security-Policy (sent as a header on every response; the page's own meta
 * tag in renderer/index.html says the same, less `frame-ancestors`, which a meta tag cannot set,
 * for file:// loads where the header may not apply; test/host/csp.test.ts keeps the two equal).
 * The desktop page talks to main over IPC only, so `connect-src` is 'self' and nothing else.
 * In a module of its own, without Electron, so the Electron security scan
 * (scripts/scan-electron.ts) can evaluate the policy itself. The browser host removes the meta
 * tag from the page it serves and sends its own header instead (main/host/server.ts), which
 * adds the one WebSocket address of that host.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "connect-src 'self'", "worker-src 'self' blob:", "font-src 'self' data:", "object-src 'none'", "base-uri 'none'",
  "form-action 'none'", "frame-ancestors 'none'",
].join('; ');
