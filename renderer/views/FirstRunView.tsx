import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE } from '../../shared/schemas.js';
import { AuthCard } from '../components/AuthCard.js';
import { messageOf } from '../components/errors.js';
import { useSession } from '../state/store.js';

/** First run: the organisation and its first admin. On the desktop the password also encrypts the database. */
export function FirstRunView() {
  const setup = useSession((s) => s.setup);
  const desktop = useSession((s) => s.client.host === 'desktop');
  const [form, setForm] = useState({ organisation: '', email: '', firstName: '', lastName: '', password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  const mismatch = form.confirm !== '' && form.confirm !== form.password;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (form.password !== form.confirm) return setError('The two passwords differ.');
    setBusy(true);
    setError(null);
    try {
      const { confirm: _c, ...input } = form;
      await setup({ ...input, firstName: input.firstName || undefined, lastName: input.lastName || undefined });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Set up your organisation" subtitle="Create the organisation and its first administrator.">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Organisation" required autoFocus {...field('organisation')} />
          <Group grow>
            <TextInput label="First name" {...field('firstName')} />
            <TextInput label="Last name" {...field('lastName')} />
          </Group>
          <TextInput label="E-mail" type="email" required autoComplete="username" {...field('email')} />
          <PasswordInput label="Password" description={`${PASSWORD_RULE}.`} required autoComplete="new-password" {...field('password')} />
          <PasswordInput
            label="Confirm password"
            required
            autoComplete="new-password"
            error={mismatch ? 'The two passwords differ.' : undefined}
            {...field('confirm')}
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
