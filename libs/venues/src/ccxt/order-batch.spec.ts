import { inRequests, type ElementAnswer } from './order-batch';

/** A cancel of `market`'s order `id`, as the split sees it. */
interface Entry {
  id: string;
  market: string;
}

const entries: Entry[] = [
  { id: 'e1', market: 'ETH' },
  { id: 'b1', market: 'BTC' },
  { id: 'e2', market: 'ETH' },
  { id: 'e3', market: 'ETH' },
  { id: 'b2', market: 'BTC' },
];

describe('a batch cut into the requests a venue takes', () => {
  it('sends at most `max` orders a request, one market a request where the venue says so, and answers in the order given', async () => {
    const sent: string[][] = [];
    const answers = await inRequests(
      entries,
      { max: 2, sameRequest: (entry) => entry.market },
      (group) => {
        sent.push(group.map((entry) => entry.id));
        return Promise.resolve(group.map((entry) => ({ value: entry.id })));
      },
    );
    expect(sent).toEqual([['e1', 'e2'], ['e3'], ['b1', 'b2']]);
    expect(answers).toEqual(entries.map((entry) => ({ value: entry.id })));
  });

  it('fails only the orders of a request that failed; the others keep their answers', async () => {
    const lost = new Error('lost');
    const answers = await inRequests(entries, { max: 3 }, (group) =>
      group[0]!.id === 'e1'
        ? Promise.reject(lost)
        : Promise.resolve(group.map((entry): ElementAnswer<string> => ({ value: entry.id }))),
    );
    expect(answers).toEqual([
      { error: lost },
      { error: lost },
      { error: lost },
      { value: 'e3' },
      { value: 'b2' },
    ]);
  });
});
