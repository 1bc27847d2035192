import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { useState } from 'react';
import { PASSWORD_RULE } from '../../shared/schemas.js';
import { AuthCard } from '../components/AuthCard.js';
import { LocalCheck } from '../components/errors.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/** First run: the organisation and its first admin. On the desktop the password also encrypts the database. */
export function FirstRunView() {
  const setup = useSession((s) => s.setup);
  const desktop = useSession((s) => s.client.host === 'desktop');
  const [form, setForm] = useState({ organisation: '', email: '', firstName: '', lastName: '', password: '', confirm: '' });
  const mismatch = form.confirm !== '' && form.confirm !== form.password;

  const { busy, error, fieldErrors, onSubmit } = useSubmit(
    async () => {
      if (form.password !== form.confirm) throw new LocalCheck('The two passwords differ.');
      const { confirm: _c, ...input } = form;
      await setup({ ...input, firstName: input.firstName || undefined, lastName: input.lastName || undefined });
    },
    Object.keys(form),
    {},
    form,
  );
  const field = (name: keyof typeof form) => ({
    value: form[name],
    error: fieldErrors[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });

  return (
    <AuthCard title="Set up your organisation" subtitle="Create the organisation and its first administrator.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Organisation" required autoFocus {...field('organisation')} />
          <Group grow>
            <TextInput label="First name" {...field('firstName')} />
            <TextInput label="Last name" {...field('lastName')} />
          </Group>
          <TextInput label="E-mail" type="email" required autoComplete="username" {...field('email')} />
          <PasswordField label="Password" description={`${PASSWORD_RULE}.`} required autoComplete="new-password" {...field('password')} />
          <PasswordField
            label="Confirm password"
            required
            autoComplete="new-password"
            {...field('confirm')}
            error={mismatch ? 'The two passwords differ.' : undefined}
          />
          {desktop && (
            <Text size="xs" c="dimmed">
              This password also encrypts Keystead's database on this computer. It cannot be recovered, so keep it safe.
            </Text>
          )}
          {error && (
            <Alert color="red" role="alert" title="Set-up failed">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} fullWidth mt="xs">
            Create organisation
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
