// What a tree search shares with its worker threads: the slots of the control block (one
// Int32Array in shared memory), the bounds on what results may be held, and the messages.

import type { PatternOptions } from '../core/pattern.js';
import type { MessagePort } from 'node:worker_threads';
import type { FileResult, FileSearchSettings } from './grep-file.js';

/** Slots of the control block shared with the workers (an Int32Array). */
export const NEXT = 0; // the next job to claim
export const POSTED = 1; // results posted so far (the main thread waits on it)
export const STOP = 2; // 1: the workers stop
export const TURN = 3; // the job the main thread reports now: no job claimed WINDOW past it
export const INFLIGHT = 4; // bytes of results posted and not yet reported: none claimed past MAX_INFLIGHT
export const WANTED = 5; // the job the main thread waits for (a worker posts it at once)
export const HANDED = 6; // jobs sent to the workers so far (a worker with none to claim waits on it)
export const SLOTS = 7;

/** Jobs claimed at most past the one reported now: results held in memory stay bounded. */
export const WINDOW = 256;
/** Bytes of results held at most before workers wait (a file out of turn is at most 1 MiB). */
export const MAX_INFLIGHT = 16 << 20;

/** What a worker is told when it starts. */
export interface WorkerSetup {
  ctl: Int32Array;
  results: MessagePort;
  patterns: string[];
  patternOptions: PatternOptions;
  settings: FileSearchSettings;
  /** bound on one slice of searching, in ms (0: none), and the work a slice does (as the main thread) */
  deadlineMs: number;
  sliceMs: number;
}

/** A job for a worker. */
export interface Job {
  abs: string;
  display: string;
}

/** A message from a worker: results of the jobs it searched, in any order. */
export interface ResultBatch {
  results: Array<{ job: number; result: FileResult }>;
}
