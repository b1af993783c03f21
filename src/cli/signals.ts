// Process signals for commands that write: SIGINT, SIGTERM, SIGHUP, SIGQUIT (and the other
// signals whose default ends the process: SIGXCPU, SIGALRM, SIGUSR2) become an
// AbortSignal the engine honours (it removes its temporary files and its prepared lock, and
// stops), then the process dies by that signal.

import { discardLiveTempFiles } from '../io/temp-file.js';
import { releaseAllLocks } from '../io/lock.js';

/**
 * Signals that also end a process by default, sent by a limit or a supervisor rather than a
 * user: SIGXCPU (the CPU time limit of `ulimit -t`, a CI runner's), SIGALRM (a `timeout`-like
 * wrapper's alarm), SIGUSR2. SIGXFSZ needs nothing: Node ignores it, so a write past `ulimit -f`
 * fails with EFBIG and the edit is refused cleanly. Not SIGUSR1 (Node's inspector) nor SIGPROF
 * (its profiler).
 */
const OTHER_ENDING_SIGNALS = ['SIGXCPU', 'SIGALRM', 'SIGUSR2'] as const;

/**
 * The signals a user or a supervisor sends to stop a program, all of which would otherwise end
 * it on the spot with its temporary file or prepared lock directory left behind. SIGQUIT (Ctrl-\)
 * too: its default is to end with a core dump, which linewise still does, once clean.
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', ...OTHER_ENDING_SIGNALS] as const;

/**
 * Runs `work` with an AbortSignal that fires (its reason the signal's name) when the process is
 * asked to stop. Once `work` has settled, the handlers are removed and, if a signal came, the
 * process is ended by that same signal, as a shell expects of a program interrupted by Ctrl-C:
 * files renamed before it came are whole; nothing else was written.
 */
export async function withProcessSignals<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let received: (typeof SIGNALS)[number] | undefined;
  const handlers = SIGNALS.map((s) => {
    const h = () => {
      received ??= s;
      controller.abort(s);
    };
    process.on(s, h);
    return [s, h] as const;
  });
  // A crash between a temporary file's creation and its removal must not leave it behind.
  const onExit = () => {
    discardLiveTempFiles();
    releaseAllLocks();
  };
  process.on('exit', onExit);
  try {
    return await work(controller.signal);
  } finally {
    for (const [s, h] of handlers) process.off(s, h);
    process.off('exit', onExit);
    if (received !== undefined) process.kill(process.pid, received);
  }
}
