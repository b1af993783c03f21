#!/usr/bin/env node
// Runs the bundled CLI and sets the exit status; nothing else belongs here.
import module from 'node:module';

// Node 22+ caches compiled code between runs: start-up is paid on every agent step.
module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
