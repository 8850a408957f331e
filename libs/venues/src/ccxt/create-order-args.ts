/** ccxt's `createOrder` arguments after the symbol. */
export interface CreateArgs {
  side: 'buy' | 'sell';
  amount: number;
  price: number;
  params: Record<string, unknown>;
}
