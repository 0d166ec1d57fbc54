#!/usr/bin/env node
// receipt-audit: the command line over the same verification core (lib/) the
// browser runs. TypeScript is loaded through tsx, so it works right after
// `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
