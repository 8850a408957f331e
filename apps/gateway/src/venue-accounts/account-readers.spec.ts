import type { StoredVenueCredential, VenueClient, VenuePosition } from '@sts/venues';
import { AccountReaders, READER_IDLE_MS } from './account-readers';

/** A venue account client that counts how it is opened, used and closed. */
class CountingClient {
  readsConnected = 0;
  streamsConnected = 0;
  reads = 0;
  closed = 0;
  constructor(private readonly answer: () => Promise<VenuePosition[]>) {}
  connectForReads = async () => void (this.readsConnected += 1);
  connect = async () => void (this.streamsConnected += 1);
  positions = () => {
    this.reads += 1;
    return this.answer();
  };
  close = async () => void (this.closed += 1);
}

const credential = (apiKey: string): StoredVenueCredential => ({
  apiKey,
  apiSecret: 'secret',
  wallet: '0xabc',
});

describe('AccountReaders', () => {
  let opened: CountingClient[];
  let answer: () => Promise<VenuePosition[]>;
  let readers: AccountReaders;
  const timeout = { ms: 1_000, message: 'silent' };
  const read = (apiKey = 'key-1') =>
    readers.read(
      { key: 'u|paradex|0xabc', exchange: 'paradex', credential: credential(apiKey) },
      (client) => client.positions(),
      timeout,
    );

  beforeEach(() => {
    opened = [];
    answer = async () => [];
    readers = new AccountReaders(async () => {
      const client = new CountingClient(() => answer());
      opened.push(client);
      return client as unknown as VenueClient;
    });
  });
  afterEach(() => readers.onModuleDestroy());

  it('opens one read-only client per account and reads through it again', async () => {
    await read();
    await read();
    await read();
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ readsConnected: 1, streamsConnected: 0, reads: 3 });
  });

  it('closes a client whose read failed, and the next read opens a fresh one', async () => {
    answer = () => Promise.reject(new Error('venue down'));
    await expect(read()).rejects.toThrow('venue down');
    answer = async () => [];
    await read();
    expect(opened).toHaveLength(2);
    expect(opened[0]!.closed).toBe(1);
    expect(opened[1]).toMatchObject({ reads: 1, closed: 0 });
  });

  it('closes a client that does not answer in time', async () => {
    answer = () => new Promise(() => undefined);
    await expect(
      readers.read(
        { key: 'k', exchange: 'paradex', credential: credential('key-1') },
        (client) => client.positions(),
        { ms: 20, message: 'paradex did not answer' },
      ),
    ).rejects.toThrow('paradex did not answer');
    expect(opened[0]!.closed).toBe(1);
  });

  it('opens a new client when the credential was rotated, and closes the old one', async () => {
    await read('key-1');
    await read('key-2');
    expect(opened).toHaveLength(2);
    expect(opened[0]!.closed).toBe(1);
    expect(opened[1]!.closed).toBe(0);
  });

  it('closes a client nobody read through for the idle time', async () => {
    jest.useFakeTimers();
    try {
      await read();
      jest.advanceTimersByTime(READER_IDLE_MS - 1);
      await read();
      jest.advanceTimersByTime(READER_IDLE_MS - 1);
      expect(opened[0]!.closed).toBe(0);
      jest.advanceTimersByTime(1);
      await Promise.resolve();
      expect(opened[0]!.closed).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a client while overlapping reads use it, and counts the idle time from the last', async () => {
    jest.useFakeTimers();
    try {
      let answerSlow!: (positions: VenuePosition[]) => void;
      // The first read is slow, every later one quick.
      answer = () => {
        answer = async () => [];
        return new Promise((resolve) => (answerSlow = resolve));
      };
      // Given longer than the idle time to answer, so only the idle close is tested.
      const slow = readers.read(
        { key: 'u|paradex|0xabc', exchange: 'paradex', credential: credential('key-1') },
        (client) => client.positions(),
        { ms: READER_IDLE_MS * 3, message: 'silent' },
      );
      await read();
      // The quick read is done; the slow one still reads through the client.
      jest.advanceTimersByTime(READER_IDLE_MS);
      await Promise.resolve();
      expect(opened[0]!.closed).toBe(0);
      answerSlow([]);
      await slow;
      jest.advanceTimersByTime(READER_IDLE_MS - 1);
      await Promise.resolve();
      expect(opened[0]!.closed).toBe(0);
      jest.advanceTimersByTime(1);
      await Promise.resolve();
      expect(opened).toHaveLength(1);
      expect(opened[0]!.closed).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
