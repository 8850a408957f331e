import {
  MAX_ANSWER_EXPECTED_MS,
  MIN_ANSWER_EXPECTED_MS,
  VenueAnswerTimes,
} from './venue-answer-times';

describe('VenueAnswerTimes: how long a hedge IOC may go unanswered on a venue', () => {
  it('is 250 ms on a venue that has not answered yet, and on one that answers in milliseconds', () => {
    const times = new VenueAnswerTimes();
    expect(times.expectedMs('paradex')).toBe(MIN_ANSWER_EXPECTED_MS);
    for (let i = 0; i < 20; i += 1) {
      times.record('paradex', 4);
    }
    expect(times.expectedMs('paradex')).toBe(250);
  });

  it('is twice the 90th percentile of a slower venue, each venue on its own answers', () => {
    const times = new VenueAnswerTimes();
    // 20 answers: 100..290 ms. The 90th percentile is the 18th, 270 ms.
    for (let i = 0; i < 20; i += 1) {
      times.record('hyperliquid', 100 + i * 10);
    }
    expect(times.expectedMs('hyperliquid')).toBe(540);
    expect(times.expectedMs('paradex')).toBe(250);
  });

  it('never exceeds 1 s, so a venue that hangs is still noticed', () => {
    const times = new VenueAnswerTimes();
    times.record('lighter', 5_000);
    expect(times.expectedMs('lighter')).toBe(MAX_ANSWER_EXPECTED_MS);
  });

  it('follows the venue: a slow spell leaves the estimate once it is under a tenth of the newest 32 answers', () => {
    const times = new VenueAnswerTimes();
    for (let i = 0; i < 32; i += 1) {
      times.record('aster', 400);
    }
    expect(times.expectedMs('aster')).toBe(800);
    for (let i = 0; i < 28; i += 1) {
      times.record('aster', 50);
    }
    // Four slow answers of 32 left: still above the 90th percentile.
    expect(times.expectedMs('aster')).toBe(800);
    times.record('aster', 50);
    expect(times.expectedMs('aster')).toBe(250);
  });
});
