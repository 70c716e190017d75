#!/usr/bin/env node
// The launcher's earlier name, kept for scripts that call it: the `lodsmith` command is
// bin/lodsmith.cjs (an ES module here would make Node set up its ES loader on every run).
import './lodsmith.cjs';
