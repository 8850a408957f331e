import type { ReactNode } from 'react';

/** The accessibility wiring of one form control: label, hint and error tied to it by id. */
export function controlProps(name: string, error: string | undefined, hint?: ReactNode) {
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : '']
    .filter(Boolean)
    .join(' ');
  return {
    id: name,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  } as const;
}

/** A labelled control with its hint (the default it takes) and the API's complaint about it. */
export function FormField(props: {
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className={props.error ? 'field field-invalid' : 'field'} data-field={props.name}>
      <label htmlFor={props.name}>{props.label}</label>
      {props.children}
      {props.hint && (
        <small id={`${props.name}-hint`} className="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <p id={`${props.name}-error`} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
