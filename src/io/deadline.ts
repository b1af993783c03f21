// A bound on how long synchronous work may run: V8 interrupts it, even inside a RegExp that
// backtracks without end. node:vm's timeout is the one tool that can stop a running RegExp.
//
// Why not V8's linear-time engine: on Node 20 it refuses every pattern with the `u` flag
// ("Cannot be executed in linear time"), and grep's patterns are Unicode patterns. Why not a
// worker: rows are written synchronously to the caller's Io; a worker could not reach a test's
// captured output. The watchdog costs a thread start (about 0.3 ms) per call, so callers run
// work in slices of a few hundred milliseconds, not one call per line.

import * as vm from 'node:vm';

const TASK = Symbol.for('linewise.deadline.task');
/** The longest deadline node:vm takes (an unsigned 32-bit count of milliseconds, about 49 days). */
export const MAX_DEADLINE_MS = 2 ** 32 - 1;
let script: vm.Script | undefined;

/** Thrown when the work ran past its deadline; the work was abandoned mid-way. */
export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super(`ran longer than ${ms} ms`);
  }
}

/** Runs `fn` synchronously; if it runs longer than `ms` milliseconds, V8 stops it and this throws DeadlineExceeded. */
export function runWithDeadline<T>(fn: () => T, ms: number): T {
  script ??= new vm.Script('globalThis[Symbol.for("linewise.deadline.task")]()', { filename: 'linewise-deadline' });
  const g = globalThis as unknown as Record<symbol, unknown>;
  const previous = g[TASK];
  g[TASK] = fn;
  try {
    return script.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)), breakOnSigint: false }) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new DeadlineExceeded(ms);
    throw e;
  } finally {
    g[TASK] = previous;
  }
}
