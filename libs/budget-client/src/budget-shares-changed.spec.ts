import { MessageValidationError } from '@sts/contracts';
import { parseBudgetSharesChanged } from './budget-shares-changed';

const A = '6f1c1a52-7d0e-4c55-9a57-3c0f3b1d2e4a';
const B = '0b6c0f9e-1f6d-4a1e-8d8e-6b5c2f1a9e3d';
const base = { venue: 'lighter', wallet: '0xmaker', share: 20, version: 7, cause: 'reserved' };

describe('budget.shares_changed as a listener reads it', () => {
  it('reads who joined and left, and how many hold the account', () => {
    const message = parseBudgetSharesChanged({
      ...base,
      holder_count: 2,
      joined: [{ trade_id: B, role: 'maker' }],
      left: [],
    });
    expect(message).toEqual({
      ...base,
      holder_count: 2,
      joined: [{ trade_id: B, role: 'maker' }],
      left: [],
    });
  });

  it('reads the earlier form, which listed every holder, as all of them holding', () => {
    const message = parseBudgetSharesChanged({
      ...base,
      holders: [
        { trade_id: A, role: 'maker' },
        { trade_id: B, role: 'maker' },
      ],
      left: [],
    });
    expect(message.joined.map((holder) => holder.trade_id)).toEqual([A, B]);
    expect(message.holder_count).toBe(2);
  });

  it('refuses a message without its holder count', () => {
    expect(() => parseBudgetSharesChanged({ ...base, joined: [], left: [] })).toThrow(
      MessageValidationError,
    );
  });
});
