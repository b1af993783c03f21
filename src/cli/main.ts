// The CLI's entry: runs linewise with an argument list against the process edges (Io) and
// resolves to the exit status. Never calls process.exit, so tests run it in-process.

import type { Command } from 'commander';
import type { Context } from '../commands/context.js';
import { Exit, type ExitCode } from '../core/errors.js';
import { messageLine } from '../format/printing.js';
import { Output } from '../io/output.js';
import { type Io, OutputClosed, processIo } from '../io/streams.js';
import { type ColorMode, styles } from './color.js';
import { exitStatus } from './exit.js';
import { buildProgram, invokedCommand } from './program.js';

export { VERSION } from './program.js';

/**
 * Runs linewise with `argv` (without node and script) against `io`; resolves to the exit status.
 */
export async function main(given: string[], io: Io = processIo()): Promise<ExitCode> {
  const out = new Output(io.stdout);
  const errLine = (message: string, path?: string) => {
    try {
      io.stderr.write(Buffer.from(`${messageLine(message, path)}\n`));
    } catch (e) {
      if (!(e instanceof OutputClosed)) throw e; // nobody reads stderr: the status still tells
    }
  };
  /** the command's status: set when it returns, raised by failures it reports on the way */
  let status: ExitCode = Exit.ok;
  let usageError: string | undefined;
  /** --json was asked for: a failure is also a record on stdout (cli/exit.ts) */
  let json: boolean | undefined;

  const program = buildProgram(
    {
      context: async (color: ColorMode): Promise<Context> => ({
        io,
        out,
        ...(await styles(color, io)),
        warn: errLine,
        failed: (code) => {
          if (code > status) status = code;
        },
      }),
      // signals.ts (and the temp files and locks it cleans up) loads only for a command that writes
      writing: async (work) => (io.trapSignals ? (await import('./signals.js')).withProcessSignals(work) : work(io.signal)),
      status: (code) => {
        status = code;
      },
      parsed: (o) => {
        json = o.json === true;
      },
    },
    {
      writeOut: (s) => out.text(s),
      writeErr: (s) => io.stderr.write(Buffer.from(s)),
      outputError: (s) => {
        usageError = s.replace(/^error: /, '').trim();
      },
    },
    invokedCommand(given),
  );

  let argv = given;
  try {
    // A path's bytes, never a look-alike's: Node decoded the arguments lossily (io/arguments.ts).
    if (io.exactArguments) argv = io.exactArguments(given);
    if (argv.length === 0) {
      program.outputHelp();
      out.flush();
      return Exit.usage;
    }
    if (unknownHelpTopic(program, argv, errLine)) return Exit.usage;
    await program.parseAsync(argv, { from: 'user' });
    out.flush();
    return status;
  } catch (e) {
    // not parsed (commander refused the command line): --json as typed, before any "--"
    json ??= argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
    return exitStatus(e, out, io, errLine, usageError, status, argv, json);
  }
}

/** "help NAME" for no command: one line and status 2, not the general help (commander's way). */
function unknownHelpTopic(program: Command, argv: string[], errLine: (m: string) => void): boolean {
  if (argv[0] !== 'help' || argv[1] === undefined || program.commands.some((c) => c.name() === argv[1])) return false;
  const names = program.commands.map((c) => c.name()).filter((n) => n !== 'help');
  errLine(`unknown command '${argv[1]}'; the commands are ${names.join(', ')} (see linewise --help)`);
  return true;
}
