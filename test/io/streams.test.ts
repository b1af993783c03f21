// The process edges: whether a descriptor is a terminal, told as process.stdout.isTTY tells it
// (isatty), without loading node:tty for a descriptor that cannot be one.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { isatty } from 'node:tty';
import { afterAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../src/io/streams.js';
import { tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('isTerminal', () => {
  it('is false for a file, a pipe, /dev/null and a closed descriptor, as isatty says', () => {
    const fifo = tmp.file('fifo');
    spawnSync('mkfifo', [fifo]);
    const fds = [fs.openSync(tmp.file('f', 'x'), 'r'), fs.openSync(fifo, fs.constants.O_RDWR), fs.openSync('/dev/null', 'r')];
    const closed = fs.openSync(tmp.file('g', 'y'), 'r');
    fs.closeSync(closed);
    try {
      for (const fd of [...fds, closed]) {
        expect(isTerminal(fd), String(fd)).toBe(false);
        expect(isatty(fd), String(fd)).toBe(false);
      }
    } finally {
      for (const fd of fds) fs.closeSync(fd);
    }
  });
});
