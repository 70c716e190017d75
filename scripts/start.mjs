// Placeholder until the desktop app lands: says what exists instead of failing.
console.log('LodSmith: the desktop editor is not built yet; use the command-line tool: npx lodsmith --help');
process.exit(1);
