// The benchmark's cases, in groups (--only), each one linewise command beside the reference tools,
// with the goal each ratio is held to: issue 17's goals, else the earlier targets (docs/PERFORMANCE.md).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { countFiles, sameWork, treeArgv, trees } from './trees.mjs';

/** Peak memory of every linewise command (issue 17). */
export const MEMORY_GOAL_MIB = 64;

/**
 * linewise ÷ reference ≤ max. `source` says whose goal it is. A reference with `sameRows` must
 * print as many lines as linewise (checked in the warm-up round), or the table says they differ.
 */
const goal = (max, source = '#17') => ({ max, source });

export const GROUPS = {
  startup: 'start-up: readlines and page of a small file vs node -e',
  read: 'readlines of 10 lines at 80 % of the log (LF and CRLF) vs sed and wc -l',
  page: 'page --last 20 of the log vs wc -l and tail; page --limit 100 of the log vs of 1 MiB',
  memory: 'peak memory: readlines and page of one 100 MiB line, readlines of every row of the log to a file, a pipe and /dev/null, vs cat',
  grep: 'grep in the single large log vs GNU grep and rg',
  tree: 'grep in directory trees (generated, node_modules, git when present) vs rg and GNU grep',
  replace: 'replace one line in the middle of the log vs sed -i; replace --rows of a million rows (peak memory) vs of 10,000',
  mcp: 'the same tree search repeated through one linewise mcp server (warm) vs rg run each time',
  patch: 'a git diff of 500 files and 5,000 hunks (a rename across a tree) applied vs git apply and patch -p1',
};

/**
 * A tree of 500 files of 400 lines (20 directories) and the `git diff` that renames an identifier
 * on every 40th line: 5,000 hunks. Made once, in the temporary directory.
 */
function patchTree() {
  const root = path.join(os.tmpdir(), `linewise-bench-patch-${process.pid}`);
  process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  const write = (dir, name) => {
    for (let f = 0; f < 500; f++) {
      const d = path.join(dir, `dir${f % 20}`);
      fs.mkdirSync(d, { recursive: true });
      let s = '';
      for (let i = 0; i < 400; i++) s += i % 40 === 7 ? `  call ${name}(${i});\n` : `  line ${i} of file ${f};\n`;
      fs.writeFileSync(path.join(d, `f${f}.ts`), s);
    }
  };
  const base = path.join(root, 'base');
  const repo = path.join(root, 'repo');
  write(base, 'oldName');
  write(repo, 'oldName');
  const git = (...args) => spawnSync('git', ['-c', 'user.email=bench@linewise', '-c', 'user.name=bench', ...args], { cwd: repo, maxBuffer: 1 << 28 });
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'base');
  write(repo, 'newName');
  const patch = path.join(root, 'rename.patch');
  fs.writeFileSync(patch, git('diff').stdout);
  return { base, work: path.join(root, 'work'), patch };
}

/**
 * The cases of the chosen groups. `d` gives the data (generated on first use), `lwArgv` runs the
 * linewise under test, `notes` collects what the table should say under it.
 */
export function makeCases(groups, d, lwArgv, notes) {
  const cases = [];
  const add = (group, name, subject, refs, memory) => {
    if (groups.has(group)) cases.push({ group, name, subject, refs: refs.filter(Boolean), ...(memory ? { memory } : {}) });
  };
  const node = (g) => ({ label: "node -e ''", argv: [process.execPath, '-e', ''], goal: g });
  const CLOCALE = { LC_ALL: 'C' };

  if (groups.has('startup')) {
    add('startup', 'start-up: readlines 1-5 of a small file', { label: 'linewise', args: ['readlines', d.small(), '1', '5'] }, [node(goal(1.5))]);
    add('startup', 'start-up: page of a small file (--limit 20)', { label: 'linewise', args: ['page', d.small(), '--limit', '20'] }, [node(goal(1.5))]);
  }

  if (groups.has('read')) {
    const at = Math.floor(d.lines() * 0.8);
    const sed = (file) => ({ label: 'sed -n', argv: ['sed', '-n', `${at},${at + 9}p;${at + 9}q`, file], goal: goal(0.8, 'earlier') });
    add('read', `readlines 10 lines at 80 % (line ${at}) of ${d.tag}`, { label: 'linewise', args: ['readlines', d.log(), String(at), String(at + 9)] }, [
      sed(d.log()),
      { label: 'wc -l', argv: ['wc', '-l', d.log()], goal: goal(1.5, 'earlier') },
    ]);
    add('read', `readlines 10 lines at 80 % of the CRLF ${d.tag}`, { label: 'linewise', args: ['readlines', d.crlf(), String(at), String(at + 9)] }, [sed(d.crlf())]);
  }

  if (groups.has('page')) {
    add('page', `last 20 lines of ${d.tag} (page --last 20)`, { label: 'linewise', args: ['page', d.log(), '--last', '20'] }, [
      { label: 'wc -l', argv: ['wc', '-l', d.log()], goal: goal(1.2) },
      { label: 'tail -n 20', argv: ['tail', '-n', '20', d.log()] },
    ]);
    add('page', `page --limit 100: ${d.tag} vs 1 MiB`, { label: `linewise ${d.tag}`, args: ['page', d.log(), '--limit', '100'] }, [
      { label: 'linewise 1 MiB', argv: lwArgv('page', d.mib1(), '--limit', '100'), goal: goal(1.2, 'earlier') },
    ]);
  }

  if (groups.has('memory')) {
    const cat = { label: 'cat', argv: ['cat', d.longLine()] };
    add('memory', 'readlines of one 100 MiB line', { label: 'linewise', args: ['readlines', d.longLine(), '1'] }, [cat]);
    add('memory', 'page of one 100 MiB line', { label: 'linewise', args: ['page', d.longLine()] }, [cat]);
    // Every row of the log (issue 27: 79-91 MiB once, a view and two strings made per row), its
    // output to a file, a pipe and /dev/null; run the bench with Node 24 for Node 24's figures.
    for (const output of ['file', 'pipe', 'null']) {
      const to = { file: 'to a file', pipe: 'into a pipe', null: 'to /dev/null' }[output];
      add('memory', `readlines ${d.tag} 1 (every row), ${to}`, { label: 'linewise', args: ['readlines', d.log(), '1'], output }, [
        { label: 'cat', argv: ['cat', d.log()], output },
      ]);
    }
    add('memory', `page --last 20 of ${d.tag}, into a pipe`, { label: 'linewise', args: ['page', d.log(), '--last', '20'], output: 'pipe' }, []);
  }

  if (groups.has('grep')) {
    // The same flags for all three, -n included (rg and grep print no numbers to a file without it;
    // linewise always does); GNU grep gets -E unless -F, and the C locale unless the case needs UTF-8.
    const grepCase = (name, flags, pattern, goals, locale = CLOCALE, floors = false) => {
      const n = flags.includes('-c') ? [] : ['-n'];
      add('grep', `grep ${name} in ${d.tag}`, { label: 'linewise', args: ['grep', ...flags, pattern, d.log()] }, [
        { label: `grep (${locale.LC_ALL})`, argv: ['grep', ...n, ...flags, ...(flags.includes('-F') ? [] : ['-E']), pattern, d.log()], env: locale, goal: goals.grep, sameRows: true },
        { label: 'rg', argv: ['rg', '--no-config', ...n, ...flags, pattern, d.log()], goal: goals.rg, sameRows: true },
        // the floor of a Node process (issue 27): reading the file alone, and rg made to read it too
        ...(floors ? [{ label: 'bare Node read', argv: [process.execPath, path.join(d.root, 'bench', 'bare-read.mjs'), d.log()] }, { label: 'rg --no-mmap', argv: ['rg', '--no-config', '--no-mmap', ...n, ...flags, pattern, d.log()], sameRows: true }] : []),
      ]);
    };
    // "Keeping the lead over GNU grep" (issue 17, item 3) is read as ≤ 1 × grep.
    grepCase('a literal (-F req=deadbeef)', ['-F'], 'req=deadbeef', { rg: goal(2), grep: goal(1) }, CLOCALE, true);
    grepCase('a regex with a literal', [], 'ERROR svc=api-1[0-9] req=ff', { rg: goal(2), grep: goal(1) }, CLOCALE, true);
    grepCase('-i, a non-ASCII literal (NAÏVE RÉSUMÉ)', ['-i'], 'NAÏVE RÉSUMÉ', { rg: goal(1), grep: goal(2.5, 'earlier') }, { LC_ALL: 'C.UTF-8' });
    grepCase('-i, an ASCII pattern', ['-i'], 'timeout retry cache', { grep: goal(2.5, 'earlier') });
    grepCase('-c, a regex with no literal', ['-c'], '[0-9]{6}', { grep: goal(6, 'earlier') });
    grepCase('a literal with no match', ['-F'], 'zzzzqqqq', { grep: goal(2.5, 'earlier') });
  }

  if (groups.has('tree')) {
    for (const t of trees(d.root, d.tree())) {
      if (t.absent) {
        notes.push("git's source tree is absent, its case skipped: clone git into bench/data/git to add it (see bench/README.md)");
        continue;
      }
      notes.push(`tree ${t.rel}: ${countFiles(path.join(d.root, t.rel))} files; ${sameWork(t, d.root, lwArgv())}`);
      const a = treeArgv(t, ['-F'], t.literal);
      add('tree', `grep -F ${t.literal} in ${t.what}`, { label: 'linewise', args: a.linewise }, [
        { label: 'rg', argv: a.rg, goal: goal(3), sameRows: true },
        // the floor of a fresh Node process (issue 27): a bare walk that opens, reads and closes
        // every file and looks for the literal, with no ignore rules and no output
        { label: 'bare Node walk', argv: [process.execPath, path.join(d.root, 'bench', 'bare-walk.mjs'), t.literal, t.rel], goal: goal(1.2, '#27') },
        { label: 'grep -r (C)', argv: a.grep, env: CLOCALE, sameRows: true },
        // the same search with a worker thread (-j 2): what the second core brings, or costs
        { label: 'linewise -j 2', argv: lwArgv('grep', '-j', '2', ...a.linewise.slice(1)), sameRows: true },
      ]);
    }
  }

  if (groups.has('replace')) {
    const target = path.join(os.tmpdir(), `linewise-bench-replace-${process.pid}.txt`);
    process.on('exit', () => fs.rmSync(target, { force: true }));
    const mid = Math.floor(d.lines() / 2);
    const setup = () => fs.copyFileSync(d.log(), target);
    add('replace', `replace one line in the middle of ${d.tag}`, { label: 'linewise', args: ['replace', target, String(mid), '--text', 'REPLACED'], setup }, [
      { label: 'sed -i', argv: ['sed', '-i', `${mid}s/.*/REPLACED/`, target], setup, goal: goal(1, 'earlier') },
    ]);
    // Every line of a file fed back as a row: the rows are held until the write (all or nothing),
    // as their input (16 MiB here) and about 10 bytes a row beside it. The goal: the 64 MiB every
    // command may use, those 26 MiB, and the young generation V8 grows to under the allocation
    // of a million edits (up to 48 MiB; 2 MiB with --max-semi-space-size=2). They took 708 MiB.
    const big = d.rows(1_000_000);
    const small = d.rows(10_000);
    const rowsTarget = path.join(os.tmpdir(), `linewise-bench-rows-${process.pid}.txt`);
    process.on('exit', () => fs.rmSync(rowsTarget, { force: true }));
    add(
      'replace',
      'replace --rows: a million rows, one a line (peak memory)',
      { label: 'linewise', args: ['replace', rowsTarget, '--rows', big.rows], setup: () => fs.copyFileSync(big.target, rowsTarget) },
      [{ label: 'linewise, 10,000 rows', argv: lwArgv('replace', rowsTarget, '--rows', small.rows), setup: () => fs.copyFileSync(small.target, rowsTarget) }],
      { mib: 160, source: '#12' },
    );
  }
  if (groups.has('patch')) {
    // Each run patches a fresh copy of the tree: the copy is the setup, not timed. The copy used
    // before is moved aside, not removed (all go at exit): ext4 makes each inode created within 30 s
    // of many being freed step over them (find_inode_bit -> recently_deleted), 0.3-1 ms a file, and
    // a removal just before each run made that the larger part of every tool's time (git apply
    // 117 ms on a quiet file system, 222 ms after a removal; docs/PERFORMANCE.md). A CI job patches
    // a checkout it has just made, not one it has just deleted.
    const t = patchTree();
    let used = 0;
    const setup = () => {
      if (fs.existsSync(t.work)) fs.renameSync(t.work, `${t.work}-used-${used++}`);
      fs.cpSync(t.base, t.work, { recursive: true });
    };
    add('patch', 'patch: 500 files, 5,000 hunks (git diff of a rename)', { label: 'linewise', args: ['patch', '-d', t.work, t.patch], setup }, [
      { label: 'git apply', argv: ['git', '-C', t.work, 'apply', t.patch], setup, goal: goal(1.5, '#25') },
      { label: 'patch -p1', argv: ['patch', '-d', t.work, '-p1', '-s', '-i', t.patch], setup },
    ]);
  }
  return cases;
}
