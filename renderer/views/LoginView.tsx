import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { AuthCard } from '../components/AuthCard.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/** Login; on the desktop, while locked, the same form first unlocks the database with the owner's password. */
export function LoginView({ locked }: { locked: boolean }) {
  const login = useSession((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(() => login(email, password));

  return (
    <AuthCard
      title={locked ? 'Unlock Keystead' : 'Log in'}
      subtitle={locked ? 'Enter the owner’s e-mail and password to open the encrypted database.' : 'Sign in to your organisation’s wallet.'}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="E-mail"
            type="email"
            required
            autoFocus
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            required
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert" title={locked ? 'Could not unlock' : 'Could not log in'}>
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} fullWidth mt="xs">
            {locked ? 'Unlock' : 'Log in'}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
