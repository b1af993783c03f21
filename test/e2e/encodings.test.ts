// End-to-end encodings: the built CLI decodes through iconv-lite's own chunk, and the chunk a
// plain UTF-8 run loads holds none of iconv-lite.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esc, fixture } from '../helpers.js';

const BIN = process.env.LINEWISE_BIN ?? fileURLToPath(new URL('../../bin/linewise.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

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

  it.runIf(process.env.LINEWISE_BIN === undefined)('keeps iconv-lite out of the start-up bundle, in a chunk of its own', () => {
    const files = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    const holding = files.filter((f) => readFileSync(`${DIST}/${f}`, 'utf8').includes('defaultCharSingleByte'));
    expect(holding.length).toBe(1);
    expect(holding[0]).not.toBe('cli.js');
    // cli.js reaches that chunk only through import(), never a static import.
    const cli = readFileSync(`${DIST}/cli.js`, 'utf8');
    expect(cli).toContain(`import("./${holding[0]}")`);
    expect(cli).not.toMatch(new RegExp(`from\\s*"\\./${holding[0]!.replace('.', '\\.')}"`));
  });
});
