import { Alert, Button, Checkbox, Group, Modal, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState, type FormEvent } from 'react';
import { OPERATIONS as OPS, type ApiKeyInfo, type NewApiKey } from '../../shared/operations.js';
import { ROLE_LABELS } from '../../shared/roles.js';
import { PASSWORD_RULE } from '../../shared/schemas.js';
import { ConfirmModal } from '../components/ConfirmModal.js';
import { notifyError, notifySuccess } from '../components/notify.js';
import { SecretReveal } from '../components/SecretReveal.js';
import { useLoad } from '../components/useLoad.js';
import { LocalCheck } from '../components/errors.js';
import { useSubmit } from '../components/useSubmit.js';
import { usePrefs, useSession } from '../state/store.js';
import { TwoStepSignIn } from './TwoStepSignIn.js';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** The signed-in user's own profile: details, password, and API keys for scripts (uid + apikey). */
export function ProfileView() {
  const me = useSession((s) => s.me)!;
  // A password change may revoke the API keys: the list is loaded afresh after one.
  const [generation, setGeneration] = useState(0);
  return (
    <Stack>
      <Title order={2}>Profile</Title>
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text fw={600}>{[me.firstName, me.lastName].filter(Boolean).join(' ') || me.email}</Text>
          <Text size="sm" c="dimmed">
            {me.email} · {ROLE_LABELS[me.role]}
            {me.title ? ` · ${me.title}` : ''}
          </Text>
        </Stack>
      </Paper>
      <DisplaySettings />
      <ApiKeys key={generation} />
      <ChangePassword onChanged={() => setGeneration((g) => g + 1)} />
      <TwoStepSignIn />
    </Stack>
  );
}

/** How amounts are shown to this user on this computer: the currency beside BSV, the unit typed in. */
function DisplaySettings() {
  const currency = usePrefs((s) => s.currency);
  const rates = usePrefs((s) => s.rates);
  const inputUnit = usePrefs((s) => s.inputUnit);
  const setCurrency = usePrefs((s) => s.setCurrency);
  const setInputUnit = usePrefs((s) => s.setInputUnit);
  const codes = Object.keys(rates).sort();
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Display</Title>
        <Text size="sm" c="dimmed">
          Amounts are shown in BSV, with satoshis and your currency beside them (from the rate table). Kept on this computer.
        </Text>
        <Group align="flex-end">
          <Select
            label="Currency"
            data={codes.includes(currency) ? codes : [currency, ...codes]}
            value={currency}
            onChange={(v) => v && setCurrency(v)}
            allowDeselect={false}
            w={160}
          />
          <Select
            label="Type amounts in"
            data={[
              { value: 'BSV', label: 'BSV' },
              { value: 'sat', label: 'satoshis' },
            ]}
            value={inputUnit}
            onChange={(v) => v && setInputUnit(v as 'BSV' | 'sat')}
            allowDeselect={false}
            w={160}
          />
        </Group>
        {!(currency in rates) && (
          <Text size="sm" c="orange">
            The rate table has no rate for {currency} yet: amounts show without it.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function ApiKeys() {
  const call = useSession((s) => s.call);
  const uid = useSession((s) => s.me!.uid);
  const keys = useLoad(() => call(OPS.listApiKeys, {}).then((o) => o.apiKeys));
  const [label, setLabel] = useState('');
  const [revealed, setRevealed] = useState<NewApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyInfo | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      setRevealed(await call(OPS.createApiKey, { label }));
      setLabel('');
      await keys.reload();
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <div>
          <Title order={4}>API keys</Title>
          <Text size="sm" c="dimmed">
            Scripts sign in with the headers <code>uid: {uid}</code> and <code>apikey: &lt;key&gt;</code>. Each key acts with your role, but
            cannot create keys (only a password sign-in can). “Last used” is kept to the minute.
          </Text>
        </div>
        {keys.error && <Alert color="red">{keys.error}</Alert>}
        {keys.data && keys.data.length > 0 && (
          <ScrollTable aria-label="API keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((k) => (
                <Table.Tr key={k.keyId}>
                  <Table.Td>{k.label || '—'}</Table.Td>
                  <Table.Td>{when(k.createdAt)}</Table.Td>
                  <Table.Td>{when(k.lastUsedAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={async () => {
                          try {
                            setRevealed(await call(OPS.rotateApiKey, { keyId: k.keyId }));
                            await keys.reload();
                          } catch (err) {
                            notifyError(err);
                          }
                        }}
                      >
                        Rotate
                      </Button>
                      <Button size="xs" variant="subtle" color="red" onClick={() => setRevoking(k)}>
                        Revoke
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
        {keys.data?.length === 0 && <Text size="sm">You have no API keys.</Text>}
        <form onSubmit={create}>
          <Group align="flex-end">
            <TextInput
              label="New key label"
              placeholder="e.g. nightly report"
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Create API key
            </Button>
          </Group>
        </form>
      </Stack>
      <Modal opened={revealed !== null} onClose={() => setRevealed(null)} title="Your new API key" centered size="lg">
        {revealed && <SecretReveal label="API key" secret={revealed.apiKey} extra={[{ label: 'uid', value: revealed.uid }]} />}
      </Modal>
      <ConfirmModal
        opened={revoking !== null}
        title="Revoke API key"
        confirmLabel="Revoke"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await call(OPS.revokeApiKey, { keyId: revoking!.keyId });
          notifySuccess('API key revoked.');
          await keys.reload();
        }}
      >
        Scripts using “{revoking?.label || 'this key'}” stop working at once.
      </ConfirmModal>
    </Paper>
  );
}

function ChangePassword({ onChanged }: { onChanged: () => void }) {
  const call = useSession((s) => s.call);
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [keepApiKeys, setKeepApiKeys] = useState(false);
  const field = (k: keyof typeof form) => ({
    value: form[k],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value }),
  });

  const { busy, error, onSubmit } = useSubmit(async () => {
    if (form.newPassword !== form.confirm) throw new LocalCheck('The two new passwords differ.');
    const r = await call(OPS.changePassword, { currentPassword: form.currentPassword, newPassword: form.newPassword, keepApiKeys });
    const keys = r.revokedApiKeys.length
      ? ` ${r.revokedApiKeys.length} API key(s) revoked: ${r.revokedApiKeys.map((k) => k.label || k.keyId).join(', ')}.`
      : '';
    notifySuccess(`Password changed. ${r.signedOutSessions} other session(s) signed out.${keys}`);
    setForm({ currentPassword: '', newPassword: '', confirm: '' });
    setKeepApiKeys(false);
    onChanged();
  });

  return (
    <Paper withBorder p="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm" maw={420}>
          <Title order={4}>Change password</Title>
          <PasswordField label="Current password" autoComplete="current-password" required {...field('currentPassword')} />
          <PasswordField
            label="New password"
            description={`${PASSWORD_RULE}.`}
            autoComplete="new-password"
            required
            {...field('newPassword')}
          />
          <PasswordField label="Confirm new password" autoComplete="new-password" required {...field('confirm')} />
          <Checkbox
            label="Keep my API keys"
            description="Otherwise every API key you made is revoked, so scripts using them stop working. Your other sessions are signed out either way."
            checked={keepApiKeys}
            onChange={(e) => setKeepApiKeys(e.currentTarget.checked)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
