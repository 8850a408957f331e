import { StsApiError, type StsErrorBody } from '@sts/sdk';
import { fieldErrorsOf } from './field-errors';

const FIELDS = [
  'market',
  'short_exchange',
  'target_spread',
  'spread_type',
  'target_size',
  'size_type',
  'max_slippage',
];
const refusal = (
  status: number,
  code: string,
  error: string,
  extra: Record<string, unknown> = {},
) => new StsApiError(status, { error, code, ...extra } as StsErrorBody);

describe('fieldErrorsOf: an API refusal placed next to the fields it names', () => {
  it('splits a 400 invalid_request into its complaints, each under the field it starts with', () => {
    const found = fieldErrorsOf(
      refusal(
        400,
        'invalid_request',
        'target_size must be a positive decimal; max_slippage must be a non-negative decimal',
      ),
      FIELDS,
    );
    expect(found).toEqual({
      fields: {
        target_size: 'target_size must be a positive decimal',
        max_slippage: 'max_slippage must be a non-negative decimal',
      },
      general: [],
    });
  });

  it('blames the field named first, not a field whose name is part of a longer one', () => {
    const found = fieldErrorsOf(
      refusal(400, 'invalid_request', 'spread_type is only valid together with target_spread'),
      FIELDS,
    );
    expect(Object.keys(found.fields)).toEqual(['spread_type']);
    expect(
      fieldErrorsOf(refusal(400, 'invalid_request', 'target_spread must be a decimal'), FIELDS)
        .fields,
    ).toEqual({
      target_spread: 'target_spread must be a decimal',
    });
  });

  it('maps codes that concern one field to it (same_exchange: the short venue; market_not_tradeable: the market)', () => {
    expect(
      fieldErrorsOf(
        refusal(400, 'same_exchange', 'long_exchange and short_exchange must differ'),
        FIELDS,
      ).fields,
    ).toEqual({
      short_exchange: 'long_exchange and short_exchange must differ',
    });
    expect(
      Object.keys(
        fieldErrorsOf(refusal(400, 'market_not_tradeable', 'DOGE is not listed on paradex'), FIELDS)
          .fields,
      ),
    ).toEqual(['market']);
  });

  it('keeps refusals of the request as a whole apart, with their reason', () => {
    const found = fieldErrorsOf(
      refusal(503, 'system_maintenance', 'the system is in maintenance mode', {
        reason: 'upgrade',
      }),
      FIELDS,
    );
    expect(found).toEqual({ fields: {}, general: ['the system is in maintenance mode (upgrade)'] });
    expect(
      fieldErrorsOf(refusal(400, 'invalid_request', 'a value in the request is malformed'), FIELDS),
    ).toEqual({
      fields: {},
      general: ['a value in the request is malformed'],
    });
  });

  it('reports a failure that is not an API answer (network) as general', () => {
    expect(fieldErrorsOf(new TypeError('Failed to fetch'), FIELDS)).toEqual({
      fields: {},
      general: ['Failed to fetch'],
    });
  });
});
