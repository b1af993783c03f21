// The shape of the bundle: what a plain run loads at start-up, and what only loads on demand.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const read = (f: string) => readFileSync(`${DIST}/${f}`, 'utf8');

/** Files a module imports statically (`from"./x.js"`, `import"./x.js"`), transitively. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const m of read(f).matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) visit(m[1]!);
  };
  visit(entry);
  return seen;
}

describe('the bundle (npm run build)', () => {
  // Markers: strings only these packages contain.
  const lazy = { 'iconv-lite': 'defaultCharSingleByte', 'fast-glob': 'onlyDirectories', ignore: 'checkIgnore', diff: 'createTwoFilesPatch' };

  it('keeps iconv-lite, fast-glob, ignore and diff out of what a plain run loads, each in a file of its own', () => {
    const startup = staticClosure('cli.js');
    const all = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    for (const [name, marker] of Object.entries(lazy)) {
      const holding = all.filter((f) => read(f).includes(marker));
      expect(holding, name).toEqual([`${name}.js`]);
      for (const f of startup) expect(read(f), `${f} holds ${name}`).not.toContain(marker);
    }
  });

  it('keeps the library entry free of commander and chalk', () => {
    for (const f of staticClosure('index.js')) {
      expect(read(f), f).not.toContain('commander.helpDisplayed');
      expect(read(f), f).not.toContain('chalkStderr');
    }
  });
});
