import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type OperationOutput } from '../../shared/operations.js';
import { CopyField } from '../components/CopyField.js';
import { notifySuccess } from '../components/notify.js';
import { QrCode } from '../components/QrCode.js';
import { SecretReveal } from '../components/SecretReveal.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';

type Enrolment = OperationOutput<'startTwoStep'>;

/**
 * Profile → Two-step sign-in: enrol an authenticator app in two steps (scan, then confirm with a code,
 * so a wrong scan cannot lock anyone out), see the recovery codes once, or turn it off with a code.
 */
export function TwoStepSignIn() {
  const call = useSession((s) => s.call);
  const status = useLoad(() => call(OPS.twoStepStatus, {}));
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const start = useSubmit(async () => setEnrolment(await call(OPS.startTwoStep, {})));
  const s = status.data;

  return (
    <Paper withBorder p="md" data-testid="two-step">
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={4}>Two-step sign-in</Title>
          {s && (
            <Badge color={s.enabled ? 'teal' : 'gray'} variant="light">
              {s.enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Signing in also asks for the 6-digit code an authenticator app (time-based, RFC 6238) shows. API keys are not affected: scripts
          keep working with uid and apikey.
        </Text>
        {status.error && <Alert color="red">{status.error}</Alert>}
        {s?.enabled && (
          <>
            <Text size="sm">
              On since {new Date(s.enabledAt!).toLocaleString()}. {s.recoveryCodesLeft} unused recovery code(s) left.
            </Text>
            <TurnOff
              onDone={async () => {
                notifySuccess('Two-step sign-in is off.');
                await status.reload();
              }}
            />
          </>
        )}
        {s && !s.enabled && !enrolment && (
          <>
            {start.error && (
              <Alert color="red" role="alert">
                {start.error}
              </Alert>
            )}
            <Group>
              <Button onClick={() => void start.run()} loading={start.busy}>
                Turn on two-step sign-in
              </Button>
            </Group>
          </>
        )}
        {enrolment && (
          <Confirm
            enrolment={enrolment}
            onCancel={() => setEnrolment(null)}
            onDone={async (codes) => {
              setEnrolment(null);
              setRecoveryCodes(codes);
              await status.reload();
            }}
          />
        )}
      </Stack>
      <Modal opened={recoveryCodes !== null} onClose={() => setRecoveryCodes(null)} title="Your recovery codes" centered size="lg">
        {recoveryCodes && (
          <SecretReveal
            label="recovery codes"
            secret={recoveryCodes.join('\n')}
            notice={{
              title: 'Save them now',
              text: 'Each code signs you in once without your phone. Keystead keeps only a hash of them and cannot show them again.',
            }}
          />
        )}
      </Modal>
    </Paper>
  );
}

function Confirm({
  enrolment,
  onCancel,
  onDone,
}: {
  enrolment: Enrolment;
  onCancel: () => void;
  onDone: (codes: string[]) => Promise<void>;
}) {
  const call = useSession((s) => s.call);
  const [otp, setOtp] = useState('');
  const { busy, error, fieldErrors, onSubmit } = useSubmit(async () => {
    const r = await call(OPS.confirmTwoStep, { otp });
    await onDone(r.recoveryCodes);
  }, ['otp']);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">1. Scan this QR code with your authenticator app, or type the secret into it.</Text>
        <Group align="flex-start" gap="lg">
          <QrCode value={enrolment.otpauthUri} size={180} label="QR code for your authenticator app" />
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Secret ({enrolment.issuer}, {enrolment.account}; SHA-1, 6 digits, 30 s)
            </Text>
            <CopyField label="Secret" value={enrolment.secret} />
          </Stack>
        </Group>
        <Text size="sm">2. Enter the code the app shows now. Nothing changes at sign-in until this code is accepted.</Text>
        <Group align="flex-end">
          <TextInput
            label="Code from the app"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            w={180}
            value={otp}
            error={fieldErrors.otp}
            onChange={(e) => setOtp(e.currentTarget.value)}
            data-testid="two-step-confirm-code"
          />
          <Button type="submit" loading={busy}>
            Confirm
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

function TurnOff({ onDone }: { onDone: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const [otp, setOtp] = useState('');
  const { busy, error, fieldErrors, onSubmit } = useSubmit(async () => {
    await call(OPS.disableTwoStep, { otp });
    setOtp('');
    await onDone();
  }, ['otp']);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Group align="flex-end">
          <TextInput
            label="Code to turn it off"
            description="From your app, or a recovery code."
            autoComplete="one-time-code"
            maxLength={64}
            w={260}
            value={otp}
            error={fieldErrors.otp}
            onChange={(e) => setOtp(e.currentTarget.value)}
            data-testid="two-step-disable-code"
          />
          <Button type="submit" color="red" variant="light" loading={busy}>
            Turn off
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
