import { beforeVenueRequest, inPayingCall, payingRequests, unpaid } from './request-meter';

/** A stand-in client call: sends `count` requests one after another, each announced first. */
async function send(count: number, sent: string[], name: string): Promise<void> {
  for (let i = 1; i <= count; i += 1) {
    await beforeVenueRequest();
    sent.push(`${name}${i}`);
  }
}

describe('payingRequests: every request of a call paid before it goes', () => {
  it('sends the requests paid in advance at once and waits for a payment for each further one', async () => {
    const sent: string[] = [];
    const payments: Array<() => void> = [];
    const pay = (): Promise<void> => new Promise((resolve) => payments.push(resolve));
    const call = payingRequests({ paid: 1, pay }, () => send(3, sent, 'r'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['r1']);
    expect(payments).toHaveLength(1);
    payments[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['r1', 'r2']);
    payments[1]!();
    await call;
    expect(sent).toEqual(['r1', 'r2', 'r3']);
  });

  it('a request outside any paying call, or after its call settled, goes at once', async () => {
    expect(beforeVenueRequest()).toBeUndefined();
    let later: Promise<void> | undefined;
    const pay = jest.fn(() => Promise.resolve());
    await payingRequests({ paid: 1, pay }, async () => {
      await beforeVenueRequest();
      // Something the call started that runs on after it (a stream it opened): not its own.
      later = new Promise<void>((resolve) => {
        setTimeout(() => {
          void (async () => {
            await beforeVenueRequest();
            await beforeVenueRequest();
            resolve();
          })();
        }, 5);
      });
    });
    await later;
    expect(pay).not.toHaveBeenCalled();
  });

  it('tells a request sent for a paying call from one sent outside any, or after its call settled', async () => {
    expect(inPayingCall()).toBe(false);
    const seen: boolean[] = [];
    let later: Promise<void> | undefined;
    await payingRequests({ paid: 1, pay: () => Promise.resolve() }, async () => {
      seen.push(inPayingCall());
      await Promise.resolve();
      seen.push(inPayingCall());
      later = new Promise<void>((resolve) => {
        setTimeout(() => {
          seen.push(inPayingCall());
          resolve();
        }, 5);
      });
    });
    await later;
    expect(seen).toEqual([true, true, false]);
  });

  it('sends what runs `unpaid` inside a paying call at once, paid by nobody (a shared market load)', async () => {
    const pay = jest.fn(() => Promise.resolve());
    const seen: boolean[] = [];
    await payingRequests({ paid: 0, pay }, async () => {
      await unpaid(async () => {
        seen.push(inPayingCall());
        await beforeVenueRequest(20);
      });
      seen.push(inPayingCall());
      await beforeVenueRequest(1);
    });
    expect(seen).toEqual([false, true]);
    expect(pay.mock.calls).toEqual([[1]]);
  });

  it('a refused payment fails the request instead of sending it', async () => {
    const sent: string[] = [];
    const call = payingRequests(
      { paid: 1, pay: () => Promise.reject(new Error('bucket closed')) },
      () => send(2, sent, 'r'),
    );
    await expect(call).rejects.toThrow('bucket closed');
    expect(sent).toEqual(['r1']);
  });

  it('pays what each request weighs beyond what was paid in advance', async () => {
    const paid: number[] = [];
    const pay = (tokens: number): Promise<void> => {
      paid.push(tokens);
      return Promise.resolve();
    };
    await payingRequests({ paid: 1, pay }, async () => {
      // A read weighing 3 tokens with 1 paid: 2 more; then a placement of 1: 1 more.
      await beforeVenueRequest(3);
      await beforeVenueRequest(1);
    });
    expect(paid).toEqual([2, 1]);
    paid.length = 0;
    await payingRequests({ paid: 4, pay }, async () => {
      // Four paid in advance cover a 3 and one token of the next 3.
      await beforeVenueRequest(3);
      await beforeVenueRequest(3);
    });
    expect(paid).toEqual([2]);
  });
});
