/**
 * Classic BPF programs for tc's `bpf` classifier in direct-action mode: the
 * kernel here has neither netem nor gact (`action drop`), but cls_bpf's
 * direct action drops a packet whose program returns TC_ACT_SHOT. A program
 * is a list of conditions; a packet meeting all of them is dropped, any
 * other goes on to the next filter (TC_ACT_UNSPEC). At tc's ingress and
 * egress alike the program sees the frame from its Ethernet header.
 */

const TC_ACT_SHOT = 2;
const TC_ACT_UNSPEC = 0xffffffff;

const OP = {
  ldAbsH: 0x28,
  ldAbsW: 0x20,
  ldAbsB: 0x30,
  ldIndH: 0x48,
  ldxMsh: 0xb1,
  and: 0x54,
  jeq: 0x15,
  jset: 0x45,
  ret: 0x06,
} as const;

/** Where a jump goes: on to the next instruction, past this condition, or to "no match". */
type Target = 'next' | 'end' | 'fail';

interface Insn {
  code: number;
  jt: Target;
  jf: Target;
  k: number;
}

/** One condition: instructions whose jumps end in `end` (it holds) or `fail` (it does not). */
export type Condition = Insn[];

const insn = (code: number, k: number, jt: Target = 'next', jf: Target = 'next'): Insn => ({
  code,
  k: k >>> 0,
  jt,
  jf,
});

/** `10.77.0.13` as the 32-bit number a `ld w` of the header reads. */
export function ipNumber(address: string): number {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part > 255)) {
    throw new Error(`not an IPv4 address: ${address}`);
  }
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

const FIELD_OFFSET = { src: 26, dst: 30 } as const;
export type AddressField = keyof typeof FIELD_OFFSET;

/** `load`, then any of `values`: past the condition on the first equal one, fail after the last. */
function anyOf(load: Insn, values: number[]): Insn[] {
  if (values.length === 0) {
    throw new Error('a BPF condition on an empty set');
  }
  return [
    load,
    ...values.map((value, index) =>
      index === values.length - 1
        ? insn(OP.jeq, value, 'next', 'fail')
        : insn(OP.jeq, value, 'end'),
    ),
  ];
}

export const when = {
  /** An IPv4 frame. */
  ipv4: (): Condition => [insn(OP.ldAbsH, 12), insn(OP.jeq, 0x0800, 'next', 'fail')],
  /** The source or destination address is one of `addresses`. */
  addressIn: (field: AddressField, addresses: string[]): Condition =>
    anyOf(insn(OP.ldAbsW, FIELD_OFFSET[field]), addresses.map(ipNumber)),
  /** The source or destination address is none of `addresses`. */
  addressNotIn: (field: AddressField, addresses: string[]): Condition => [
    insn(OP.ldAbsW, FIELD_OFFSET[field]),
    ...addresses.map((address) => insn(OP.jeq, ipNumber(address), 'fail', 'next')),
  ],
  /** The source or destination address is in the /24 of `address`. */
  inSubnet24: (field: AddressField, address: string): Condition => [
    insn(OP.ldAbsW, FIELD_OFFSET[field]),
    insn(OP.and, 0xffffff00),
    insn(OP.jeq, ipNumber(address) & 0xffffff00, 'next', 'fail'),
  ],
  /** TCP, the first fragment (ports readable); loads the header length for `port`. */
  tcp: (): Condition => [
    insn(OP.ldAbsB, 23),
    insn(OP.jeq, 6, 'next', 'fail'),
    insn(OP.ldAbsH, 20),
    insn(OP.jset, 0x1fff, 'fail', 'next'),
    insn(OP.ldxMsh, 14),
  ],
  /** After `tcp()`: the source port, the destination port, or either, is one of `ports`. */
  port: (which: 'src' | 'dst' | 'either', ports: number[]): Condition => {
    const src = [insn(OP.ldIndH, 14), ...ports.map((port) => insn(OP.jeq, port, 'end'))];
    const dst = [insn(OP.ldIndH, 16), ...ports.map((port) => insn(OP.jeq, port, 'end'))];
    const loads = which === 'src' ? src : which === 'dst' ? dst : [...src, ...dst];
    // The last comparison fails the condition instead of falling through.
    const last = loads[loads.length - 1];
    return [...loads.slice(0, -1), { ...last, jt: 'next', jf: 'fail' }];
  },
};

/**
 * Assembles the conditions into tc's `bytecode` text: `count,code jt jf k,...`.
 * All hold: return TC_ACT_SHOT (drop); any fails: TC_ACT_UNSPEC (next filter).
 */
export function dropWhen(...conditions: Condition[]): string {
  const program: { insn: Insn; end: number }[] = [];
  for (const condition of conditions) {
    const end = program.length + condition.length;
    program.push(...condition.map((each) => ({ insn: each, end })));
  }
  const drop = program.length;
  const fail = drop + 1;
  const offset = (from: number, target: Target, end: number): number => {
    const to = target === 'next' ? from + 1 : target === 'end' ? end : fail;
    const jump = to - (from + 1);
    if (jump < 0 || jump > 255) {
      throw new Error(`BPF jump of ${jump} from ${from}: the program is too long`);
    }
    return jump;
  };
  const lines = program.map(({ insn: each, end }, index) =>
    [each.code, offset(index, each.jt, end), offset(index, each.jf, end), each.k >>> 0].join(' '),
  );
  lines.push(`${OP.ret} 0 0 ${TC_ACT_SHOT}`, `${OP.ret} 0 0 ${TC_ACT_UNSPEC}`);
  return `${lines.length},${lines.join(',')}`;
}
