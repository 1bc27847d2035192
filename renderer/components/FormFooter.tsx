import { Alert, Button, Group } from '@mantine/core';

/** The end of a dialog's form: its error (announced), then Cancel and the action that submits it. */
export function FormFooter({
  error,
  onCancel,
  submitLabel,
  busy,
  danger = false,
  color,
  onSubmit,
}: {
  error: string | null;
  onCancel: () => void;
  submitLabel: string;
  busy: boolean;
  danger?: boolean;
  /** The action's colour, where it is neither the default nor a danger (approving a payment: teal). */
  color?: string;
  /** Without it the button submits the surrounding form. */
  onSubmit?: () => void;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type={onSubmit ? 'button' : 'submit'} color={danger ? 'red' : color} loading={busy} onClick={onSubmit}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
