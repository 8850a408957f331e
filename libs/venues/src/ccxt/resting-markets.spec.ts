import { RestingMarkets } from './resting-markets';

describe('RestingMarkets', () => {
  let nowMs = 0;
  const markets = () => new RestingMarkets(60_000, () => nowMs);

  beforeEach(() => {
    nowMs = 1_000_000;
  });

  it('holds a market from a post-only sent until its last order closed, then a linger', () => {
    const resting = markets();
    resting.placing('ETH/USDT:USDT', 'a');
    resting.placing('ETH/USDT:USDT', 'b');
    resting.settled('a');
    expect(resting.markets()).toEqual(['ETH/USDT:USDT']);
    resting.settled('b');
    nowMs += 59_999;
    expect(resting.markets()).toEqual(['ETH/USDT:USDT']);
    nowMs += 1;
    expect(resting.markets()).toEqual([]);
  });

  it('keeps a re-quoted market armed: a placement within the linger ends it', () => {
    const resting = markets();
    resting.placing('ETH/USDT:USDT', 'a');
    resting.settled('a');
    nowMs += 30_000;
    resting.placing('ETH/USDT:USDT', 'b');
    nowMs += 60_000;
    expect(resting.markets()).toEqual(['ETH/USDT:USDT']);
  });

  it('holds a market for an order never seen closed, however long', () => {
    const resting = markets();
    resting.placing('BTC/USDT:USDT', 'lost');
    nowMs += 3_600_000;
    expect(resting.markets()).toEqual(['BTC/USDT:USDT']);
  });

  it('ignores what it never held (an IOC, another client)', () => {
    const resting = markets();
    resting.settled('ioc');
    expect(resting.markets()).toEqual([]);
  });
});
