// The V8 flags of a run: a grep that walks a tree gets TurboFan later (on V8 11, Node 20, whose
// flag it is); a grep of named files does not; patch runs without TurboFan; other commands get none.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlags, walksTree } from '../../src/cli/heap.js';

const budgeted = /^11\./.test(process.versions.v8);

describe('walksTree', () => {
  it('a directory named, or only a pattern (the working directory): a walk, on V8 11 alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-heap-'));
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'x\n');
    expect(walksTree(['grep', '-F', 'x', dir])).toBe(budgeted);
    expect(walksTree(['grep', 'x'])).toBe(budgeted);
    expect(walksTree(['grep', '-i', 'x', file])).toBe(false);
    expect(walksTree(['readlines', dir])).toBe(false);
    expect(runFlags(['grep', 'x', dir]).includes('--interrupt-budget')).toBe(budgeted);
    expect(runFlags(['grep', 'x', file])).toBe('--semi-space-growth-factor=1 --no-maglev');
    // patch: grep's flags and no TurboFan, whatever its arguments
    expect(runFlags(['patch', file])).toBe('--semi-space-growth-factor=1 --no-maglev --no-opt');
    expect(runFlags(['readlines', file])).toBe('');
    fs.rmSync(dir, { recursive: true });
  });
});
