// receiptBytes: the engine makes a receipt's rows only while the call's budget lasts (the MCP
// server shows 64 KiB of them), keeps every region as line numbers past it, and the receipts it
// makes print, under a printer's budget no larger, exactly the bytes and counts of full receipts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printEditOutcome } from '../../src/format/edit-report.js';
import { printPatchOutcome } from '../../src/format/patch-report.js';
import type { Printing } from '../../src/format/printing.js';
import type { ReceiptBudget } from '../../src/format/receipt.js';
import { plain } from '../../src/format/style.js';
import { Output } from '../../src/io/output.js';
import { applyEdits, applyPatch, createFile, type FileReceipt, type PatchResult, type ReplaceResult } from '../../src/index.js';
import { tempDir, writeTree } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** What a row costs the engine's budget: its number, a tab, its bytes. */
const cost = (rs: readonly (FileReceipt | undefined)[]) => rs.reduce((n, r) => n + (r?.regions.flat().reduce((m, l) => m + String(l.line).length + 1 + l.bytes.length, 0) ?? 0), 0);
const rowsOf = (rs: readonly (FileReceipt | undefined)[]) => rs.reduce((n, r) => n + (r?.regions.flat().length ?? 0), 0);
const linesOf = (rs: readonly (FileReceipt | undefined)[]) => rs.reduce((n, r) => n + (r?.spans.reduce((m, s) => m + s.lines, 0) ?? 0), 0);

/** A printing into memory: its bytes. */
function printing(): { p: Printing; bytes: () => Buffer } {
  const parts: Buffer[] = [];
  const out = new Output({ isTTY: false, write: (c) => void parts.push(Buffer.from(c)) });
  return {
    p: { out, rowStyle: plain, noteStyle: plain, warn: () => {}, failed: () => {} },
    bytes: () => {
      out.flush();
      return Buffer.concat(parts);
    },
  };
}

const budget = (left: number): ReceiptBudget => ({ left, rowsLeftOut: 0, filesLeftOut: 0 });

/** The patch's receipts printed under a printer's budget of `left` bytes: the bytes and what it counted. */
function printedPatch(r: PatchResult, left: number): { bytes: Buffer; budget: ReceiptBudget } {
  const { p, bytes } = printing();
  const b = budget(left);
  printPatchOutcome(p, r, { json: false, receipt: true, budget: b });
  return { bytes: bytes(), budget: b };
}

function printedEdit(r: ReplaceResult, left: number): { bytes: Buffer; budget: ReceiptBudget } {
  const { p, bytes } = printing();
  const b = budget(left);
  printEditOutcome(p, r, { json: false, receipt: true, pathRows: false, budget: b });
  return { bytes: bytes(), budget: b };
}

describe('applyPatch with receiptBytes', () => {
  // 60 files of 200 lines, 10 hunks each: 600 regions of 11 lines (a hunk's 7 and 2 more each side)
  const FILES = 60;
  const lines = (f: number, name: string) => Array.from({ length: 200 }, (_, i) => (i % 20 === 10 ? `  call ${name}(${i}); // file ${f}\n` : `  line ${i} of file ${f};\n`));
  const patch: string[] = [];
  for (let f = 0; f < FILES; f++) {
    patch.push(`--- a/d/f${f}.ts\n+++ b/d/f${f}.ts\n`);
    for (let h = 10; h < 200; h += 20) {
      patch.push(`@@ -${h - 2},7 +${h - 2},7 @@\n`);
      for (let i = h - 3; i < h + 4; i++) patch.push(i === h ? `-${lines(f, 'oldName')[i]}+${lines(f, 'newName')[i]}` : ` ${lines(f, 'oldName')[i]}`);
    }
  }
  let runs = 0;
  /** The patch applied to a fresh tree. */
  const apply = (receiptBytes?: number) => {
    const files: Record<string, string> = {};
    for (let f = 0; f < FILES; f++) files[`d/f${f}.ts`] = lines(f, 'oldName').join('');
    const dir = writeTree(path.join(tmp.dir, `p${runs++}`), files);
    return applyPatch(patch.join(''), { directory: dir, receipt: true, ...(receiptBytes !== undefined ? { receiptBytes } : {}) });
  };

  it('without a budget: every row, and spans that say each region as its rows do', async () => {
    const full = await apply();
    const receipts = full.files.map((f) => f.receipt);
    expect(rowsOf(receipts)).toBe(FILES * 10 * 11);
    for (const r of receipts) {
      expect(r!.spans).toEqual(r!.regions.map((g) => ({ first: g[0]!.line, lines: g.length })));
      for (const g of r!.regions) expect(g.map((l) => l.line)).toEqual(Array.from({ length: g.length }, (_, i) => g[0]!.line + i));
    }
  });

  it('makes no row past the budget, keeps every region as line numbers, and prints as full receipts do', async () => {
    const full = await apply();
    const total = cost(full.files.map((f) => f.receipt));
    for (const bytes of [0, 1, 100, 5000, 65536, total - 1, total]) {
      const cut = await apply(bytes);
      const receipts = cut.files.map((f) => f.receipt);
      // the rows made fit in the budget, as many as fit in order
      expect(cost(receipts)).toBeLessThanOrEqual(bytes);
      expect(cost(receipts)).toBeGreaterThan(bytes - 40);
      // every region still said, and every row made is the full receipt's row
      expect(linesOf(receipts)).toBe(FILES * 10 * 11);
      cut.files.forEach((f, i) => {
        const whole = full.files[i]!.receipt!;
        expect(f.receipt!.spans).toEqual(whole.spans);
        expect(f.receipt!.edits).toEqual(whole.edits);
        expect(f.receipt!.shifts).toEqual(whole.shifts);
        f.receipt!.regions.forEach((g, k) => expect(g).toEqual(whole.regions[k]!.slice(0, g.length)));
      });
      // printed under a budget no larger than the engine's: the same bytes, the same counts
      for (const left of [bytes, Math.floor(bytes / 2)]) {
        const a = printedPatch(full, left);
        const b = printedPatch(cut, left);
        expect(b.bytes.equals(a.bytes)).toBe(true);
        expect(b.budget).toEqual(a.budget);
      }
    }
  });

  it('a printer with a larger budget than the engine\'s still counts every row it does not show', async () => {
    const cut = await apply(5000);
    const { bytes, budget: b } = printedPatch(cut, 65536);
    const shown = bytes.toString().split('\n').filter((l) => /^\d+\t/.test(l)).length;
    expect(shown).toBe(rowsOf(cut.files.map((f) => f.receipt)));
    expect(shown + b.rowsLeftOut).toBe(FILES * 10 * 11);
  });

  it('refuses a budget that is not a count', async () => {
    // as every count of the library: the CLI's rules and messages, exit code 2
    await expect(apply(-1)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('receiptBytes') });
    await expect(apply('64' as unknown as number)).rejects.toMatchObject({ exitCode: 2, code: 'bad-option', message: expect.stringContaining('receiptBytes') });
    // checked whether or not a receipt is asked for: a caller's mistake is said, never ignored
    const dir = writeTree(path.join(tmp.dir, 'bad'), { 'x.txt': 'x\n' });
    await expect(applyPatch('--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n+y\n', { directory: dir, receiptBytes: -5 })).rejects.toMatchObject({ exitCode: 2 });
    await expect(applyEdits('x.txt', [{ start: 1, text: 'y' }], { cwd: dir, receiptBytes: 1.5 })).rejects.toMatchObject({ exitCode: 2 });
    await expect(createFile('new.txt', 'y\n', { cwd: dir, receiptBytes: -1 })).rejects.toMatchObject({ exitCode: 2 });
    expect(fs.readFileSync(path.join(dir, 'x.txt'), 'utf8')).toBe('x\n');
    expect(fs.existsSync(path.join(dir, 'new.txt'))).toBe(false);
  });
});

describe('edits and created files with receiptBytes', () => {
  const text = Array.from({ length: 3000 }, (_, i) => `new line ${i} of the edit`).join('\n');

  it('applyEdits of 3,000 lines: the rows stop at the budget, the region is still 3,002 lines, printed as the full receipt', async () => {
    const a = writeTree(path.join(tmp.dir, 'e1'), { 'big.txt': 'first\nlast\n' });
    const b = writeTree(path.join(tmp.dir, 'e2'), { 'big.txt': 'first\nlast\n' });
    const full = await applyEdits('big.txt', [{ start: 2, end: 1, text }], { cwd: a, receipt: true });
    const cut = await applyEdits('big.txt', [{ start: 2, end: 1, text }], { cwd: b, receipt: true, receiptBytes: 4096 });
    const r = cut.files[0]!.receipt!;
    expect(r.spans).toEqual([{ first: 1, lines: 3002 }]);
    expect(full.files[0]!.receipt!.regions[0]!.length).toBe(3002);
    expect(cost([r])).toBeLessThanOrEqual(4096);
    expect(r.regions[0]!.length).toBeGreaterThan(100);
    expect(r.regions[0]!.length).toBeLessThan(200);
    for (const left of [4096, 1000]) {
      const x = printedEdit(full, left);
      const y = printedEdit(cut, left);
      expect(y.bytes.equals(x.bytes)).toBe(true);
      expect(y.budget).toEqual(x.budget);
      expect(y.budget.rowsLeftOut + y.bytes.toString().split('\n').filter((l) => /^\d+\t/.test(l)).length).toBe(3002);
    }
  });

  it('a file emptied keeps its region of no lines, with or without a budget', async () => {
    const a = writeTree(path.join(tmp.dir, 'e3'), { 'gone.txt': 'one\ntwo\n' });
    const cut = await applyEdits('gone.txt', [{ start: 1, end: 2, text: '' }], { cwd: a, receipt: true, receiptBytes: 0 });
    expect(cut.files[0]!.receipt!.spans).toEqual([{ first: 1, lines: 0 }]);
    expect(cut.files[0]!.receipt!.regions).toEqual([[]]);
  });

  it('createFile: the rows of the new file stop at the budget; its span counts them all', async () => {
    const a = writeTree(path.join(tmp.dir, 'c1'), { 'keep.txt': '' });
    const r = (await createFile('new.txt', `${text}\n`, { cwd: a, receipt: true, receiptBytes: 200 })).files[0]!.receipt!;
    expect(r.spans).toEqual([{ first: 1, lines: 3000 }]);
    expect(cost([r])).toBeLessThanOrEqual(200);
    expect(r.regions[0]!.map((l) => l.text)).toEqual(Array.from({ length: r.regions[0]!.length }, (_, i) => `new line ${i} of the edit`));
    const none = (await createFile('none.txt', `${text}\n`, { cwd: a, receipt: true, receiptBytes: 0 })).files[0]!.receipt!;
    expect(none.regions).toEqual([]);
    expect(none.spans).toEqual([{ first: 1, lines: 3000 }]);
  });
});
