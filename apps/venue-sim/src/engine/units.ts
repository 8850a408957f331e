import Big from 'big.js';

/**
 * Exact conversion between decimal strings and integer steps (ticks of price,
 * lots of size). The book and matching run on integers only; money never
 * passes through a float on its way to or from the wire.
 */
export class Units {
  private readonly step: Big;
  /** step = mantissa * 10^-decimals, with an integer mantissa. */
  private readonly mantissa: number;
  private readonly decimals: number;

  constructor(readonly stepText: string) {
    this.step = new Big(stepText);
    if (this.step.lte(0)) {
      throw new Error(`step must be positive: ${stepText}`);
    }
    const plain = this.step.toFixed();
    const dot = plain.indexOf('.');
    this.decimals = dot < 0 ? 0 : plain.length - dot - 1;
    this.mantissa = Number(plain.replace('.', ''));
  }

  /** Steps in a decimal string, or null when it is not a positive whole number of steps. */
  toSteps(value: string): number | null {
    let amount: Big;
    try {
      amount = new Big(value);
    } catch {
      return null;
    }
    const steps = amount.div(this.step);
    if (amount.lte(0) || !steps.round(0, Big.roundDown).eq(steps)) {
      return null;
    }
    const count = steps.toNumber();
    return Number.isSafeInteger(count) ? count : null;
  }

  /** The decimal string of a whole number of steps, in its shortest form. */
  format(steps: number): string {
    const scaled = String(Math.abs(steps * this.mantissa));
    const negative = steps < 0 ? '-' : '';
    if (this.decimals === 0) {
      return `${negative}${scaled}`;
    }
    const padded = scaled.padStart(this.decimals + 1, '0');
    const whole = padded.slice(0, padded.length - this.decimals);
    const fraction = padded.slice(padded.length - this.decimals).replace(/0+$/, '');
    return fraction ? `${negative}${whole}.${fraction}` : `${negative}${whole}`;
  }

  toBig(steps: number): Big {
    return this.step.times(steps);
  }

  /** Approximate value for the simulation's own float arithmetic (never for money). */
  toFloat(steps: number): number {
    return (steps * this.mantissa) / 10 ** this.decimals;
  }

  /** Steps nearest below / above a float value (for placing the house's quotes). */
  floorSteps(value: number): number {
    return Math.floor((value * 10 ** this.decimals) / this.mantissa + 1e-9);
  }

  ceilSteps(value: number): number {
    return Math.ceil((value * 10 ** this.decimals) / this.mantissa - 1e-9);
  }
}
