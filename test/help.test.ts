// Help that teaches: every command's help shows every option in an example command line, and
// asking for help on a command that does not exist is an error, not the general help.
import { describe, expect, it } from 'vitest';
import { Exit } from '../src/core/errors.js';
import { run } from './helpers.js';

const COMMANDS = ['readlines', 'page', 'replace', 'patch', 'grep', 'mcp', 'encodings'];

/** The flags of the Options section: [short or undefined, long]. */
function options(help: string): [string | undefined, string][] {
  const section = help.slice(help.indexOf('\nOptions:\n'), help.indexOf('\nExamples:\n'));
  return [...section.matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)].map((m) => [m[1], m[2]!] as [string | undefined, string]).filter(([, long]) => long !== '--help');
}

/** The example command lines (`$ ...`) of a help text. */
const examples = (help: string) => help.split('\n').filter((l) => l.trimStart().startsWith('$ '));

const uses = (lines: string[], flag: string) => lines.some((l) => new RegExp(`(^|\\s)${flag}(\\s|$)`).test(l));

describe('help', () => {
  for (const cmd of COMMANDS) {
    it(`help ${cmd}: exit 0, the same text as ${cmd} --help, and an example for every option`, async () => {
      const r = await run(['help', cmd]);
      expect(r.status).toBe(Exit.ok);
      expect(r.stderr).toBe('');
      const help = r.stdout.toString();
      expect(help).toContain(`Usage: linewise ${cmd}`);
      expect(help).toContain('\nExamples:\n');
      expect(help).not.toMatch(/\r/); // escapes in the examples are shown, not interpreted
      const again = await run([cmd, '--help']);
      expect(again.stdout.toString()).toBe(help);
      const ex = examples(help);
      expect(ex.length).toBeGreaterThanOrEqual(3);
      expect(ex.every((l) => /\$ (\S+ [|] )?.*linewise /.test(l))).toBe(true);
      if (cmd !== 'encodings') expect(options(help).length).toBeGreaterThanOrEqual(cmd === 'mcp' ? 3 : 4);
      for (const [short, long] of options(help)) {
        expect(uses(ex, long) || (short !== undefined && uses(ex, short)), `${cmd}: no example uses ${short ?? ''} ${long}`).toBe(true);
      }
    });
  }

  it('help replace shows the stale-edit guard and every --eol mode with examples', async () => {
    const help = (await run(['help', 'replace'])).stdout.toString();
    const ex = examples(help);
    expect(ex.filter((l) => l.includes('--expect')).length).toBeGreaterThanOrEqual(2);
    for (const mode of ['keep', 'lf', 'crlf']) expect(uses(ex, `--eol ${mode}`), mode).toBe(true);
    expect(help).toMatch(/auto \(default\)/);
    expect(help).toContain('the status is 3');
  });

  it('--help and help with no command: the commands, examples of the loop, the exit statuses', async () => {
    for (const args of [['--help'], ['help'], ['-h']]) {
      const r = await run(args);
      expect(r.status).toBe(Exit.ok);
      const help = r.stdout.toString();
      for (const cmd of COMMANDS) expect(help).toContain(`  ${cmd} `);
      expect(help).toContain('--expect before');
      expect(help).toContain('linewise --version');
      expect(help).toContain('Exit status: 0 ok, 1 grep found nothing, 2 usage or input error, 3 stale edit or conflict.');
    }
  });

  it('help for a command that does not exist: one line on stderr, exit 2, nothing on stdout', async () => {
    const r = await run(['help', 'nosuchcommand']);
    expect(r.status).toBe(Exit.usage);
    expect(r.stdout.toString()).toBe('');
    expect(r.stderr).toBe("linewise: unknown command 'nosuchcommand'; the commands are readlines, page, replace, patch, grep, mcp, encodings (see linewise --help)\n");
  });
});
