// Holds the design's one-way dependencies: core knows no npm package, no fs, no process.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
const imports = (file: string) => [...readFileSync(join(SRC, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);

describe('architecture', () => {
  it('core imports only core, node:buffer and the pure regex parser', () => {
    for (const f of files('core')) {
      for (const spec of imports(f)) {
        expect(spec.startsWith('./') || spec === 'node:buffer' || spec === '@eslint-community/regexpp', `${f} imports ${spec}`).toBe(true);
      }
      expect(readFileSync(join(SRC, f), 'utf8'), `${f} touches process`).not.toMatch(/\bprocess\./);
    }
  });

  it('only cli.ts imports commander and chalk', () => {
    for (const f of [...files('.')]) {
      if (f === 'cli.ts') continue;
      for (const spec of imports(f)) expect(['commander', 'chalk'], `${f} imports ${spec}`).not.toContain(spec);
    }
  });

  it('every source file opens with a one-line comment saying its job', () => {
    for (const f of files('.')) expect(readFileSync(join(SRC, f), 'utf8'), f).toMatch(/^\/\/ \S/);
  });
});
