import { Units } from './units';

describe('Units', () => {
  it('round-trips decimal strings through integer steps exactly', () => {
    const tick = new Units('0.000001');
    expect(tick.toSteps('0.010512')).toBe(10512);
    expect(tick.format(10512)).toBe('0.010512');
    expect(new Units('0.1').format(970001)).toBe('97000.1');
    expect(new Units('0.1').format(970000)).toBe('97000');
    expect(new Units('100').format(3)).toBe('300');
    expect(new Units('0.00001').format(20)).toBe('0.0002');
  });

  it('refuses values that are not whole positive multiples of the step', () => {
    const tick = new Units('0.5');
    expect(tick.toSteps('10.5')).toBe(21);
    expect(tick.toSteps('10.25')).toBeNull();
    expect(tick.toSteps('0')).toBeNull();
    expect(tick.toSteps('-1')).toBeNull();
    expect(tick.toSteps('abc')).toBeNull();
  });

  it('rounds floats to the step in the asked direction', () => {
    const tick = new Units('0.01');
    expect(tick.floorSteps(180.019)).toBe(18001);
    expect(tick.ceilSteps(180.011)).toBe(18002);
    expect(tick.ceilSteps(180.01)).toBe(18001);
  });
});
