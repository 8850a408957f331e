import type { DeadManSwitch, VenueClient } from '@sts/venues';

/**
 * A venue client with some of its methods and its dead-man switch replaced
 * (counted, timed...): the replacements by name, the switch as `deadManSwitch`
 * makes it when read (a client may learn its switch late). Every other method
 * is bound to the client once, not on every read: the quote path reads them often.
 */
export function interceptedClient(
  client: VenueClient,
  methods: ReadonlyMap<PropertyKey, unknown>,
  deadManSwitch: () => DeadManSwitch | null,
): VenueClient {
  const bound = new Map<PropertyKey, { method: unknown; call: unknown }>();
  return new Proxy(client, {
    get(target, property) {
      if (methods.has(property)) {
        return methods.get(property);
      }
      if (property === 'deadManSwitch') {
        return deadManSwitch();
      }
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') {
        return value;
      }
      const known = bound.get(property);
      if (known?.method === value) {
        return known.call;
      }
      const call = (value as () => unknown).bind(target);
      bound.set(property, { method: value, call });
      return call;
    },
  });
}
