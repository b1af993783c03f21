// Cancellation points: a fired AbortSignal stops long work at the next checkpoint, naming its reason.
import { describe, expect, it } from 'vitest';
import { checkpoint, Interrupted } from '../../src/io/checkpoint.js';

describe('checkpoint', () => {
  it('passes while the signal has not fired, then throws Interrupted with its reason', async () => {
    const c = new AbortController();
    await checkpoint(c.signal);
    await checkpoint(undefined);
    setImmediate(() => c.abort('SIGTERM'));
    let caught: unknown;
    try {
      for (let i = 0; i < 100; i++) await checkpoint(c.signal);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Interrupted);
    expect((caught as Interrupted).reason).toBe('SIGTERM');
    expect((caught as Interrupted).message).toBe('interrupted by SIGTERM; nothing was written');
  });

  it('names no reason when the signal carries none (a client cancelled)', async () => {
    const c = new AbortController();
    c.abort();
    await expect(checkpoint(c.signal)).rejects.toThrow('interrupted; nothing was written');
  });
});
