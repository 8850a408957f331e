import Big from 'big.js';
import { Account } from './accounts';

describe('Account', () => {
  it('averages the entry while a position grows and realises PnL when it shrinks', () => {
    const account = new Account('0xabc', new Big(1000));
    account.applyFill('BTC', 'buy', new Big('100'), new Big('1'), new Big('0.01'));
    account.applyFill('BTC', 'buy', new Big('110'), new Big('1'), new Big('0.01'));
    expect(account.positions.get('BTC')?.entryPrice.toFixed()).toBe('105');
    account.applyFill('BTC', 'sell', new Big('120'), new Big('0.5'), new Big('0'));
    expect(account.realizedPnl.toFixed()).toBe('7.5');
    expect(account.positions.get('BTC')?.size.toFixed()).toBe('1.5');
    expect(account.equity(new Map([['BTC', new Big('100')]])).toFixed()).toBe('999.98');
  });

  it('flips a position through zero at the fill price', () => {
    const account = new Account('0xabc');
    account.applyFill('ETH', 'sell', new Big('2000'), new Big('2'), new Big('0'));
    account.applyFill('ETH', 'buy', new Big('1990'), new Big('3'), new Big('0'));
    expect(account.realizedPnl.toFixed()).toBe('20');
    expect(account.positions.get('ETH')?.size.toFixed()).toBe('1');
    expect(account.positions.get('ETH')?.entryPrice.toFixed()).toBe('1990');
  });
});
