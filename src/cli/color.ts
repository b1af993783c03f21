// Where colour is chosen: --color, NO_COLOR and FORCE_COLOR decide whether it is on, and chalk
// makes the coloured Style the printers use.

import { plain, type Style } from '../format/style.js';
import type { Io } from '../io/streams.js';

export type ColorMode = 'auto' | 'always' | 'never';

/** --color beats the environment; NO_COLOR (non-empty) beats FORCE_COLOR; else only on a terminal. */
export function colorEnabled(mode: ColorMode, isTTY: boolean, env: Io['env']): boolean {
  if (mode !== 'auto') return mode === 'always';
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

/** Loaded only when colour is on: chalk's colour detection loads node:tty at import (net, streams). */
async function colored(): Promise<Style> {
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return { number: (s) => c.green(s), path: (s) => c.magenta(s), match: (s) => c.bold.red(s), note: (s) => c.dim(s) };
}

/**
 * The styles of one run: rows are plain unless stdout is a terminal (piped rows are never
 * coloured, whatever --color says); footers, separators and notes follow --color.
 */
export async function styles(mode: ColorMode, io: Io): Promise<{ rowStyle: Style; noteStyle: Style }> {
  const style = colorEnabled(mode, io.stdout.isTTY, io.env) ? await colored() : plain;
  return { rowStyle: io.stdout.isTTY ? style : plain, noteStyle: style };
}
