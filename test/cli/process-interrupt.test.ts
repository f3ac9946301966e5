// Stopping on a signal (src/cli/process-interrupt.ts), in-process: the handler learns which signal
// came, and the line printed says how to quit at once in that signal's terms — "Ctrl-C again" to a
// person at a terminal, not to the CI runner or `timeout` that sent SIGTERM.
import { describe, expect, test } from 'vitest';
import {
  againTo,
  onFirstInterrupt,
  whileInterruptible,
  type InterruptIo,
  type InterruptSignal,
} from '../../src/cli/process-interrupt.ts';

/** An io whose `send` delivers a signal to whoever listens. */
function signalIo(): InterruptIo & { send(signal: InterruptSignal): void; err(text: string): void; errText(): string } {
  let listener: ((signal: InterruptSignal) => void) | null = null;
  let err = '';
  return {
    onInterrupt: (handler) => {
      listener = handler;
      return () => void (listener = null);
    },
    send: (signal) => listener?.(signal),
    err: (text) => void (err += text),
    errText: () => err,
  };
}

describe('a signal names itself', () => {
  test('the first signal reaches the handler with its name; the listening then ends', () => {
    const io = signalIo();
    const seen: InterruptSignal[] = [];
    onFirstInterrupt(io, (signal) => seen.push(signal));
    io.send('SIGTERM');
    io.send('SIGINT');
    expect(seen).toEqual(['SIGTERM']);
  });

  test('the line says Ctrl-C after a Ctrl-C and SIGTERM after a SIGTERM', async () => {
    expect(againTo('SIGINT', 'quit at once')).toBe('Ctrl-C again to quit at once');
    expect(againTo('SIGTERM', 'quit at once')).toBe('SIGTERM received; send it again to quit at once');
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const io = signalIo();
      const aborted = await whileInterruptible(io, 'afp check: interrupted', (stop) => {
        io.send(signal);
        return Promise.resolve(stop.aborted);
      });
      expect(aborted).toBe(true);
      expect(io.errText()).toBe(`\nafp check: interrupted (${againTo(signal, 'quit at once')})\n`);
    }
  });
});
