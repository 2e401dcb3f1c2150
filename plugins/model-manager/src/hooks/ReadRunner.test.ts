/**
 * @jest-environment node
 */

import { ReadRunner, type ReadOutcome } from './ReadRunner';

/** A read whose answers the test gives, one at a time. */
function controlledRead() {
  const waiting: Array<(outcome: ReadOutcome) => void> = [];
  let started = 0;
  const read = () =>
    new Promise<ReadOutcome>(resolve => {
      started++;
      waiting.push(resolve);
    });
  /** Ends the oldest read under way with `outcome`, and lets the runner go on. */
  const answer = async (outcome: ReadOutcome) => {
    waiting.shift()!(outcome);
    // The runner's loop continues after the awaited read: let its microtasks run.
    await new Promise(r => setImmediate(r));
  };
  return { read, answer, started: () => started, open: () => waiting.length };
}

describe('ReadRunner', () => {
  it('makes one more read for all the requests that came during a read', async () => {
    const c = controlledRead();
    const runner = new ReadRunner(c.read);
    runner.request();
    runner.request();
    runner.request();
    expect(c.started()).toBe(1);
    await c.answer('done');
    expect(c.started()).toBe(2);
    expect(c.open()).toBe(1);
    await c.answer('done');
    expect(c.started()).toBe(2);
    expect(c.open()).toBe(0);
    runner.request();
    expect(c.started()).toBe(3);
  });

  it("waits for the next request after a read that answers 'wait'", async () => {
    const c = controlledRead();
    const runner = new ReadRunner(c.read);
    runner.request();
    runner.request();
    await c.answer('wait');
    expect(c.started()).toBe(1);
    runner.request();
    expect(c.started()).toBe(2);
  });

  it('starts no read once stopped, and says so', async () => {
    const c = controlledRead();
    const runner = new ReadRunner(c.read);
    runner.request();
    runner.request();
    runner.stop();
    expect(runner.stopped).toBe(true);
    await c.answer('done');
    runner.request();
    expect(c.started()).toBe(1);
  });
});
