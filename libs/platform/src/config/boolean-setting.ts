import { Expose, Transform } from 'class-transformer';

/**
 * A boolean setting read from `variable` as written: `true` or `false`
 * (anything else is left for `@IsBoolean` to refuse); in place of
 * `@Expose({ name: variable })`. A plain `@Transform` cannot do it:
 * loadConfig's implicit conversion runs first and turns every non-empty
 * string, `"false"` included, into `true`.
 */
export function BooleanSetting(variable: string): PropertyDecorator {
  return (target, property) => {
    Expose({ name: variable })(target, property);
    Transform(({ obj }) => {
      const written = (obj as Record<string, unknown>)[variable];
      if (written === true || written === 'true') {
        return true;
      }
      if (written === false || written === 'false') {
        return false;
      }
      return written;
    })(target, property);
  };
}
