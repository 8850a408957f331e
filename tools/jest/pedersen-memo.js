// StarkNet's Pedersen hash, remembered by its inputs within one spec file.
// Paradex's signatures are Pedersen hashes of typed data (SNIP-12 rev 0): ccxt
// hashes every order it signs and the simulator's Paradex hashes it again to
// check the signature, and the domain's and each type's hashes are the same
// for every message. On the machine's JavaScript bigints a hash costs about
// half a millisecond; in the Paradex conformance spec they were two thirds of
// its CPU time, half of them the simulator redoing the client's. Pedersen is a
// pure function, so a remembered answer is the answer: an input that differs
// (a client that encodes a field wrongly) is a different key, hashed afresh.
// ccxt folds with `pedersen` on bigints and the simulator with
// `computeHashOnElements`, whose fold feeds each 0x-hex result back in: keys
// are values, so both meet. Inputs of any other form are not remembered.
/* global jest -- a setup file: jest's own object, as in a spec */
jest.mock('@scure/starknet', () => {
  const actual = jest.requireActual('@scure/starknet');
  /** Enough for a spec file's distinct hashes; a full memo starts afresh. */
  const MAX_REMEMBERED = 200_000;
  const remembered = new Map();
  const valueKey = (input) => {
    if (typeof input === 'bigint') {
      return input.toString(16);
    }
    if (typeof input === 'number' && Number.isSafeInteger(input) && input >= 0) {
      return input.toString(16);
    }
    if (typeof input === 'string' && /^0x[0-9a-f]+$/i.test(input)) {
      return BigInt(input).toString(16);
    }
    return undefined;
  };
  const pedersen = (x, y) => {
    const xKey = valueKey(x);
    const yKey = valueKey(y);
    if (xKey === undefined || yKey === undefined) {
      return actual.pedersen(x, y);
    }
    const key = `${xKey}:${yKey}`;
    let hash = remembered.get(key);
    if (hash === undefined) {
      hash = actual.pedersen(x, y);
      if (remembered.size >= MAX_REMEMBERED) {
        remembered.clear();
      }
      remembered.set(key, hash);
    }
    return hash;
  };
  return {
    ...actual,
    pedersen,
    computeHashOnElements: (data, fn = pedersen) => actual.computeHashOnElements(data, fn),
  };
});
