import { requestKindOf } from './request-kinds';

const get = (url: string) => ({ url, method: 'GET', body: undefined });

describe('requestKindOf: a venue request as the venue weighs it', () => {
  it('reads Hyperliquid info types and exchange actions from the body', () => {
    const info = (type: string) => ({
      url: 'https://api.hyperliquid.xyz/info',
      method: 'POST',
      body: JSON.stringify({ type, user: '0x1' }),
    });
    const action = (type: string) => ({
      url: 'https://api.hyperliquid.xyz/exchange',
      method: 'POST',
      body: JSON.stringify({ action: { type }, nonce: 1 }),
    });
    expect(requestKindOf('hyperliquid', info('orderStatus'))).toBe('order_read');
    expect(requestKindOf('hyperliquid', info('frontendOpenOrders'))).toBe('open_orders');
    expect(requestKindOf('hyperliquid', info('userFillsByTime'))).toBe('fills');
    expect(requestKindOf('hyperliquid', info('clearinghouseState'))).toBe('account');
    expect(requestKindOf('hyperliquid', info('userFunding'))).toBe('account');
    expect(requestKindOf('hyperliquid', info('somethingNew'))).toBe('other');
    expect(requestKindOf('hyperliquid', action('order'))).toBe('place');
    expect(requestKindOf('hyperliquid', action('cancelByCloid'))).toBe('cancel');
    expect(requestKindOf('hyperliquid', action('scheduleCancel'))).toBe('dead_man');
    expect(requestKindOf('hyperliquid', action('updateLeverage'))).toBe('action');
  });

  it('reads Aster paths and methods', () => {
    const base = 'https://fapi.asterdex.com/fapi/v3';
    expect(requestKindOf('aster', { url: `${base}/order?x=1`, method: 'POST', body: '' })).toBe(
      'place',
    );
    expect(requestKindOf('aster', { url: `${base}/order`, method: 'DELETE', body: '' })).toBe(
      'cancel',
    );
    expect(requestKindOf('aster', get(`${base}/order?symbol=BTCUSDT`))).toBe('order_read');
    expect(requestKindOf('aster', get(`${base}/openOrders`))).toBe('open_orders');
    expect(requestKindOf('aster', get(`${base}/userTrades`))).toBe('fills');
    expect(requestKindOf('aster', get(`${base}/positionRisk`))).toBe('account');
    expect(requestKindOf('aster', get(`${base}/income?incomeType=FUNDING_FEE`))).toBe('account');
    expect(
      requestKindOf('aster', { url: `${base}/countdownCancelAll`, method: 'POST', body: '' }),
    ).toBe('dead_man');
  });

  it('reads Paradex paths: orders, private reads, public', () => {
    const base = 'https://api.prod.paradex.trade/v1';
    expect(requestKindOf('paradex', { url: `${base}/orders`, method: 'POST', body: '{}' })).toBe(
      'place',
    );
    expect(
      requestKindOf('paradex', {
        url: `${base}/orders/by_client_id/c1`,
        method: 'DELETE',
        body: '',
      }),
    ).toBe('cancel');
    expect(requestKindOf('paradex', get(`${base}/orders/by_client_id/c1`))).toBe('order_read');
    expect(requestKindOf('paradex', get(`${base}/orders?market=BTC-USD-PERP`))).toBe('open_orders');
    expect(requestKindOf('paradex', get(`${base}/orders-history?client_id=c1`))).toBe(
      'order_history',
    );
    expect(requestKindOf('paradex', get(`${base}/fills`))).toBe('fills');
    expect(requestKindOf('paradex', get(`${base}/orderbook/BTC-USD-PERP`))).toBe('book');
    expect(requestKindOf('paradex', get(`${base}/funding/payments?market=BTC-USD-PERP`))).toBe(
      'account',
    );
    expect(requestKindOf('paradex', get(`${base}/funding/data?market=BTC-USD-PERP`))).toBe(
      'markets',
    );
  });

  it('reads Extended paths', () => {
    const base = 'https://api.starknet.extended.exchange/api/v1';
    expect(
      requestKindOf('extended', { url: `${base}/user/order`, method: 'POST', body: '{}' }),
    ).toBe('place');
    expect(
      requestKindOf('extended', { url: `${base}/user/order/5`, method: 'DELETE', body: '' }),
    ).toBe('cancel');
    expect(requestKindOf('extended', get(`${base}/user/orders/external/c1`))).toBe('order_read');
    expect(requestKindOf('extended', get(`${base}/user/orders/history`))).toBe('order_history');
    expect(requestKindOf('extended', get(`${base}/user/orders`))).toBe('open_orders');
    expect(requestKindOf('extended', get(`${base}/info/markets/BTC-USD/orderbook`))).toBe('book');
    expect(requestKindOf('extended', get(`${base}/user/funding/history?fromTime=1`))).toBe(
      'account',
    );
  });

  it('reads a Lighter transaction by its type', () => {
    const base = 'https://mainnet.zklighter.elliot.ai/api/v1';
    const tx = (type: number) => ({
      url: `${base}/sendTx`,
      method: 'POST',
      body: { tx_type: type },
    });
    expect(requestKindOf('lighter', tx(14))).toBe('place');
    expect(requestKindOf('lighter', tx(15))).toBe('cancel');
    expect(requestKindOf('lighter', tx(16))).toBe('dead_man');
    expect(requestKindOf('lighter', tx(20))).toBe('action');
    expect(requestKindOf('lighter', get(`${base}/nextNonce?account_index=1`))).toBe('nonce');
    expect(requestKindOf('lighter', get(`${base}/trades?account_index=1`))).toBe('fills');
    expect(requestKindOf('lighter', get(`${base}/accountActiveOrders`))).toBe('open_orders');
    expect(requestKindOf('lighter', get(`${base}/positionFunding?account_index=1`))).toBe(
      'account',
    );
  });
});
