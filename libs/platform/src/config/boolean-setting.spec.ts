import 'reflect-metadata';
import { IsBoolean } from 'class-validator';
import { BooleanSetting } from './boolean-setting';
import { ConfigError, loadConfig } from './load-config';

class Switches {
  @BooleanSetting('FEATURE_ON')
  @IsBoolean()
  featureOn: boolean = false;

  @BooleanSetting('FEATURE_DEFAULT_ON')
  @IsBoolean()
  featureDefaultOn: boolean = true;
}

describe('BooleanSetting', () => {
  it('reads true and false as written, "false" included', () => {
    expect(loadConfig(Switches, { FEATURE_ON: 'true', FEATURE_DEFAULT_ON: 'false' })).toEqual({
      featureOn: true,
      featureDefaultOn: false,
    });
    expect(loadConfig(Switches, { FEATURE_ON: 'false' }).featureOn).toBe(false);
  });

  it('keeps the default when unset or empty', () => {
    expect(loadConfig(Switches, { FEATURE_ON: '' })).toEqual({
      featureOn: false,
      featureDefaultOn: true,
    });
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => loadConfig(Switches, { FEATURE_ON: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig(Switches, { FEATURE_ON: 'yes' })).toThrow(/FEATURE_ON \("yes"\)/);
  });
});
