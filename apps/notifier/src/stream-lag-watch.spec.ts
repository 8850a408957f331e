import { StreamLagWatch } from './stream-lag-watch';

describe('StreamLagWatch', () => {
  it('calls a consumer stalled once an event the stream held 5 s ago is still undelivered', () => {
    const watch = new StreamLagWatch(5_000);
    expect(watch.observe(120, 100, 0)).toBe(false);
    expect(watch.observe(125, 100, 4_999)).toBe(false);
    expect(watch.lag).toBe(25);
    expect(watch.observe(125, 100, 5_000)).toBe(true);
    // The mark is cleared: the next stall is judged from a fresh reading.
    expect(watch.observe(125, 100, 5_001)).toBe(false);
    expect(watch.observe(125, 100, 10_001)).toBe(true);
  });

  it('never calls a consumer stalled that is behind but passes each mark in time', () => {
    const watch = new StreamLagWatch(5_000);
    let delivered = 0;
    for (let atMs = 0; atMs <= 60_000; atMs += 1_000) {
      // The stream grows 100 events a second; the consumer is always a second behind it.
      const streamLast = atMs / 10 + 100;
      expect(watch.observe(streamLast, delivered, atMs)).toBe(false);
      expect(watch.lag).toBe(100);
      delivered = streamLast;
    }
  });

  it('clears its mark when the consumer catches up, and after a restart', () => {
    const watch = new StreamLagWatch(5_000);
    expect(watch.observe(10, 5, 0)).toBe(false);
    expect(watch.observe(10, 10, 1_000)).toBe(false);
    expect(watch.lag).toBe(0);
    expect(watch.observe(20, 10, 6_000)).toBe(false);
    watch.reset();
    expect(watch.observe(20, 10, 10_000)).toBe(false);
    expect(watch.observe(20, 10, 15_000)).toBe(true);
  });
});
