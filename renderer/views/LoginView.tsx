import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { useState } from 'react';
import { ApiError } from '../api/client.js';
import { AuthCard } from '../components/AuthCard.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

/**
 * Login; on the desktop, while locked, the same form first unlocks the database with the owner's password.
 * When the account has two-step sign-in the engine answers OTP_REQUIRED, and the form asks for the code.
 */
export function LoginView({ locked }: { locked: boolean }) {
  const login = useSession((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [askCode, setAskCode] = useState(false);
  const { busy, error, setError, fieldErrors, onSubmit } = useSubmit(
    async () => {
      try {
        await login(email, password, askCode ? otp : undefined);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'OTP_REQUIRED') {
          setAskCode(true);
          setOtp('');
          return;
        }
        if (err instanceof ApiError && err.code === 'OTP_INVALID') setOtp('');
        throw err;
      }
    },
    // A field left empty, or an e-mail that is not one, is said under that field.
    ['email', 'password'],
    {},
    { email, password },
  );
  // Another account or password starts over: its code (if any) is asked for again.
  const restart = () => {
    setAskCode(false);
    setOtp('');
    setError(null);
  };

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
            autoFocus={!askCode}
            autoComplete="username"
            value={email}
            readOnly={askCode}
            error={fieldErrors.email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordField
            label="Password"
            required
            autoComplete="current-password"
            value={password}
            readOnly={askCode}
            error={fieldErrors.password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {askCode && (
            <>
              <TextInput
                label="Two-step code"
                description="The 6-digit code your authenticator app shows now, or one of your recovery codes."
                required
                autoFocus
                autoComplete="one-time-code"
                inputMode="text"
                maxLength={64}
                value={otp}
                onChange={(e) => setOtp(e.currentTarget.value)}
                data-testid="login-otp"
              />
              <Text size="xs">
                <Anchor component="button" type="button" onClick={restart}>
                  Use another account
                </Anchor>
              </Text>
            </>
          )}
          {error && (
            <Alert color="red" role="alert" title={locked ? 'Could not unlock' : 'Could not log in'}>
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} fullWidth mt="xs">
            {askCode ? 'Verify' : locked ? 'Unlock' : 'Log in'}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
