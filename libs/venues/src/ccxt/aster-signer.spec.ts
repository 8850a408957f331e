import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { asterSignerOptions } from './ccxt-credentials';
import { createCcxtExchange } from './ccxt-exchange';

const keyOf = (label: string) => keccak256(toHex(`aster-signer-spec:${label}`));
const MAIN_KEY = keyOf('main');
const AGENT_KEY = keyOf('api-wallet');
const MAIN = privateKeyToAccount(MAIN_KEY).address;
const AGENT = privateKeyToAccount(AGENT_KEY).address;

/** What ccxt 4.5.84 would send: the signed v3 parameters of a balance read (nothing is sent). */
async function signedParams(credentials: Record<string, string>): Promise<URLSearchParams> {
  const exchange = (await createCcxtExchange('aster', credentials)) as unknown as {
    sign(path: string, api: string, method: string, params: object): { url: string };
    close(): Promise<void>;
  };
  const { url } = exchange.sign('v3/balance', 'fapiPrivate', 'GET', {});
  await exchange.close();
  return new URL(url).searchParams;
}

describe('Aster credentials for ccxt: a main wallet, or an API wallet signing for it', () => {
  it('signs as the main wallet itself when its own key is stored (ccxt as it is)', async () => {
    expect(asterSignerOptions({ walletAddress: MAIN, privateKey: MAIN_KEY })).toEqual({});
    const params = await signedParams({ walletAddress: MAIN, privateKey: MAIN_KEY });
    const named = [params.get('user'), params.get('signer')].map((a) => a?.toLowerCase());
    expect(named).toEqual([MAIN.toLowerCase(), MAIN.toLowerCase()]);
  });

  it('signs with the API wallet for the main wallet: user = wallet, signer = API wallet address', async () => {
    const stored = { walletAddress: MAIN, apiKey: AGENT, secret: AGENT_KEY, privateKey: AGENT_KEY };
    const params = await signedParams(stored);
    expect(params.get('user')?.toLowerCase()).toBe(MAIN.toLowerCase());
    expect(params.get('signer')).toBe(AGENT);
  });

  it('takes the API wallet address from the key when none is stored', () => {
    expect(asterSignerOptions({ walletAddress: MAIN, privateKey: AGENT_KEY })).toMatchObject({
      signerAddress: AGENT,
      cachedWalletAddress: MAIN,
    });
  });

  it('leaves a key that is not one to ccxt', () => {
    expect(asterSignerOptions({ walletAddress: MAIN, privateKey: '0x1234' })).toEqual({});
  });
});
