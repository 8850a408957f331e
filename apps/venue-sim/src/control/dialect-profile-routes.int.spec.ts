import {
  alternativeProfiles,
  conformanceProfiles,
  coveringProfiles,
  parseProfileSetting,
  type Readings,
} from '../dialects/dialect-profiles';
import { startVenueSim, type RunningVenueSim } from '../sim-server';

describe('/control/dialects/:venue/profile', () => {
  let sim: RunningVenueSim;
  const url = (venue: string): string => `${sim.url}/control/dialects/${venue}/profile`;
  const put = (venue: string, body: unknown): Promise<Response> =>
    fetch(url(venue), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const valueOf = async (venue: string, reading: string): Promise<string> => {
    const answer = (await (await fetch(url(venue))).json()) as {
      readings: Record<string, { value: string }>;
    };
    return answer.readings[reading].value;
  };

  beforeAll(async () => {
    sim = await startVenueSim({
      seed: 3,
      tickMs: 0,
      dialectProfiles: parseProfileSetting('aster.post_only_cross=expire'),
    });
  });
  afterAll(() => sim.stop());

  it('names each reading with its value, values, default and documented answer', async () => {
    const answer = (await (await fetch(url('aster'))).json()) as {
      venue: string;
      readings: Record<string, Record<string, unknown>>;
    };
    expect(answer.venue).toBe('aster');
    expect(answer.readings['post_only_cross']).toMatchObject({
      value: 'expire',
      values: ['refuse', 'expire'],
      default: 'refuse',
      documented: null,
    });
  });

  it('switches a reading, and a world reset keeps it', async () => {
    expect((await put('aster', { post_only_cross: 'refuse' })).status).toBe(200);
    await fetch(`${sim.url}/control/reset`, { method: 'POST', body: '{}' });
    expect(await valueOf('aster', 'post_only_cross')).toBe('refuse');
  });

  it('refuses an unknown reading or value with 400 and changes nothing', async () => {
    await put('aster', { post_only_cross: 'expire' });
    const unknownValue = await put('aster', { post_only_cross: 'maybe' });
    expect(unknownValue.status).toBe(400);
    expect(((await unknownValue.json()) as { error: string }).error).toContain('refuse, expire');
    const mixed = await put('aster', { post_only_cross: 'refuse', no_such_reading: 'x' });
    expect(mixed.status).toBe(400);
    expect(await valueOf('aster', 'post_only_cross')).toBe('expire');
  });

  it('answers 404 for a venue without a dialect', async () => {
    expect((await fetch(url('nowhere'))).status).toBe(404);
    expect((await put('nowhere', {})).status).toBe(404);
  });

  const readings: Readings = {
    a: { values: ['x', 'y', 'z'], default: 'x', documented: null, source: '' },
    b: { values: ['p', 'q'], default: 'q', documented: 'q', source: '' },
  };

  it('lists the default profile, then one per value the default does not play', () => {
    expect(alternativeProfiles(readings)).toEqual([
      { name: 'default', profile: {} },
      { name: 'a=y', profile: { a: 'y' } },
      { name: 'a=z', profile: { a: 'z' } },
      { name: 'b=p', profile: { b: 'p' } },
    ]);
  });

  it('runs the conformance suite under every reading it can meet, not those of reduce-only orders', () => {
    const withReduceOnly: Readings = {
      ...readings,
      c: {
        values: ['applies', 'waived'],
        default: 'applies',
        documented: null,
        source: '',
        only: 'reduce_only',
      },
    };
    expect(conformanceProfiles(withReduceOnly)).toEqual(alternativeProfiles(readings));
    expect(alternativeProfiles(withReduceOnly)).toContainEqual({
      name: 'c=waived',
      profile: { c: 'waived' },
    });
  });

  it("runs it under the readings of batches only where the client sends the venue's batches", () => {
    const withBatch: Readings = {
      ...readings,
      d: { values: ['10', '50'], default: '10', documented: '10', source: '', only: 'batch' },
    };
    expect(conformanceProfiles(withBatch)).toEqual(alternativeProfiles(readings));
    expect(conformanceProfiles(withBatch, true)).toEqual(alternativeProfiles(withBatch));
  });

  it('covers every value no default plays in as few profiles as the longest reading needs', () => {
    expect(coveringProfiles(readings)).toEqual([{ a: 'y', b: 'p' }, { a: 'z' }]);
    expect(coveringProfiles({})).toEqual([]);
  });

  it('reads the setting and refuses a malformed entry', async () => {
    expect(
      parseProfileSetting(' aster.post_only_cross=expire , paradex.client_id_lookup=any'),
    ).toEqual({
      aster: { post_only_cross: 'expire' },
      paradex: { client_id_lookup: 'any' },
    });
    expect(() => parseProfileSetting('aster=expire')).toThrow(/bad dialect profile entry/);
    await expect(
      startVenueSim({ dialectProfiles: { aster: { post_only_cross: 'x' } } }),
    ).rejects.toThrow(/post_only_cross must be one of/);
  });
});
