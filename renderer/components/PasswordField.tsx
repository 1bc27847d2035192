import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { forwardRef, useId } from 'react';

/**
 * Mantine's PasswordInput, with its error announced: Mantine marks the field in error only with
 * `data-invalid`, which a screen reader does not read. Here the input is `aria-invalid` and described by
 * the error (and the description), as every other field is. Use it wherever a password is asked for.
 */
export const PasswordField = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordField(props, ref) {
  const ownId = useId();
  const id = props.id ?? `password-${ownId.replace(/:/g, '')}`;
  const shown = !!props.error && typeof props.error !== 'boolean';
  const describedBy = [shown ? `${id}-error` : null, props.description ? `${id}-description` : null].filter(Boolean).join(' ');
  return (
    <PasswordInput
      {...props}
      ref={ref}
      id={id}
      errorProps={{ ...props.errorProps, id: `${id}-error` }}
      descriptionProps={{ ...props.descriptionProps, id: `${id}-description` }}
      aria-invalid={props.error ? true : undefined}
      aria-describedby={describedBy || undefined}
    />
  );
});
