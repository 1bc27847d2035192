import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type UserOutput } from '../../shared/operations.js';
import { messageOf } from '../components/errors.js';
import { FormFooter } from '../components/FormFooter.js';
import { SecretReveal } from '../components/SecretReveal.js';
import { useSession } from '../state/store.js';

/**
 * An admin resets another user's forgotten password: Keystead sends no e-mail, so the temporary password is
 * shown here once, to hand over in person; the user then changes it in Profile.
 */
export function PasswordResetModal({ user, onClose }: { user: UserOutput; onClose: () => void }) {
  const call = useSession((s) => s.call);
  const [temporary, setTemporary] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reset() {
    setBusy(true);
    setError(null);
    try {
      setTemporary((await call(OPS.resetPassword, { userId: user.uid })).temporaryPassword);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Reset the password of ${user.email}`} centered size="lg">
      {temporary ? (
        <Stack>
          <SecretReveal
            label="temporary password"
            secret={temporary}
            notice={{
              title: 'Give it to them in person, now',
              text: `It is shown only here. ${user.email} signs in with it and then chooses their own in Profile. Their sessions were signed out and their API keys revoked.`,
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            {user.email} gets a temporary password; their current one stops working, their sessions are signed out and their API keys
            revoked. Make sure it is really them asking. The reset is recorded in the audit log.
          </Text>
          <FormFooter error={error} onCancel={onClose} submitLabel="Reset password" busy={busy} danger onSubmit={() => void reset()} />
        </Stack>
      )}
    </Modal>
  );
}
