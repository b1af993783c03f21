// End-to-end encodings: the built CLI decodes UTF-16 by its mark and other encodings by name.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esc, fixture } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));

function linewise(args: string[], input?: Buffer) {
  const isJs = BIN.endsWith('.js');
  const r = spawnSync(isJs ? process.execPath : BIN, isJs ? [BIN, ...args] : args, { input, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

describe('the built CLI with encodings', () => {
  it('reads Shift_JIS through --encoding, and UTF-16LE by its byte order mark', () => {
    const s = linewise(['readlines', fixture('shift_jis.txt'), '1', '--encoding', 'shift_jis']);
    expect(s.status).toBe(0);
    expect(esc(s.stdout)).toBe(esc('1\t日本\n2\t語\n'));
    const u = linewise(['page', '-', '--limit', '1'], readFileSync(fixture('utf16le-bom-crlf.txt')));
    expect(esc(u.stdout)).toBe('1\\thello\\r\\n\\n[Read 1 line (lines 1-1 of 3 total). 2 lines remaining from offset 1.]\\n');
  });

  it('refuses an unknown encoding with one line and exit 2', () => {
    const r = linewise(['readlines', fixture('latin1.txt'), '1', '--encoding', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`linewise: unknown encoding 'nope'; "linewise encodings" lists the names --encoding accepts\n`);
  });
});
