import { Alert, Button, Checkbox, Group, Modal, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type AppSpendingOutput } from '../../../shared/operations.js';
import { FormFooter } from '../../components/FormFooter.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { expiryOf } from './PermissionRequests.js';

type Unit = 'satoshis' | 'currency' | 'none';

/** Sets an app's monthly spending authorisation: satoshis, an amount in a currency (at the latest rate), or none. */
export function SpendingLimitModal(props: { spending: AppSpendingOutput; onClose: () => void; onSaved: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const now = props.spending.limit;
  const [unit, setUnit] = useState<Unit>(now === null ? 'satoshis' : 'satoshis' in now ? 'satoshis' : 'currency');
  const [satoshis, setSatoshis] = useState(now && 'satoshis' in now ? String(now.satoshis) : '');
  const [currency, setCurrency] = useState(now && 'currency' in now ? now.currency : 'USD');
  const [amount, setAmount] = useState(now && 'amount' in now ? now.amount : '');
  const save = useSubmit(async () => {
    const limit =
      unit === 'none'
        ? null
        : unit === 'satoshis'
          ? { satoshis: Number(satoshis.replace(/[ ,_]/g, '')) }
          : { currency, amount: amount.trim() };
    await call(OPS.setAppSpendingLimit, { originator: props.spending.originator, limit });
    notifySuccess(`The spending authorisation of ${props.spending.originator} is set.`);
    await props.onSaved();
    props.onClose();
  }, ['limit', 'limit.satoshis', 'limit.currency', 'limit.amount']);
  return (
    <Modal opened onClose={props.onClose} title={`Monthly spending of ${props.spending.originator}`} centered>
      <form onSubmit={save.onSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            What the app may spend each calendar month (UTC) without asking. A spend above what is left waits for a grant of its own. Tokens
            and ordinals always need their own grant.
          </Text>
          <SegmentedControl
            value={unit}
            onChange={(v) => setUnit(v as Unit)}
            data={[
              { value: 'satoshis', label: 'Satoshis' },
              { value: 'currency', label: 'Currency' },
              { value: 'none', label: 'None' },
            ]}
          />
          {unit === 'satoshis' && (
            <TextInput
              label="Satoshis a month"
              inputMode="numeric"
              value={satoshis}
              onChange={(e) => setSatoshis(e.currentTarget.value)}
              error={save.fieldErrors['limit.satoshis'] ?? save.fieldErrors.limit}
            />
          )}
          {unit === 'currency' && (
            <Group align="flex-start">
              <TextInput
                label="Amount a month"
                value={amount}
                onChange={(e) => setAmount(e.currentTarget.value)}
                error={save.fieldErrors['limit.amount'] ?? save.fieldErrors.limit}
              />
              <TextInput
                label="Currency"
                value={currency}
                maxLength={3}
                onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
                error={save.fieldErrors['limit.currency']}
                w={90}
              />
            </Group>
          )}
          <FormFooter error={save.error} onCancel={props.onClose} submitLabel="Save authorisation" busy={save.busy} />
        </Stack>
      </form>
    </Modal>
  );
}

type Kind = 'protocol' | 'basket' | 'certificate' | 'asset';

/** Grants (or denies) an app a protocol, basket, certificate type or asset before it asks. */
export function GrantAhead(props: { onSaved: () => Promise<void> }) {
  const call = useSession((s) => s.call);
  const [originator, setOriginator] = useState('');
  const [kind, setKind] = useState<Kind>('protocol');
  const [level, setLevel] = useState('1');
  const [privileged, setPrivileged] = useState(false);
  const [name, setName] = useState('');
  const [counterparty, setCounterparty] = useState('*');
  const [fields, setFields] = useState('');
  const [until, setUntil] = useState('');
  const fieldNames = [
    'originator',
    'protocol',
    'securityLevel',
    'counterparty',
    'basket',
    'certificateType',
    'fields',
    'asset',
    'expiresAt',
  ];
  const submit = (grant: boolean) => async () => {
    const what =
      kind === 'protocol'
        ? {
            securityLevel: Number(level) as 0 | 1 | 2,
            protocol: name,
            counterparty: level === '2' ? counterparty : undefined,
            privileged: privileged || undefined,
          }
        : kind === 'basket'
          ? { basket: name }
          : kind === 'certificate'
            ? {
                certificateType: name,
                fields: fields.trim()
                  ? fields
                      .split(',')
                      .map((f) => f.trim())
                      .filter(Boolean)
                  : undefined,
              }
            : { asset: name };
    const p = await call(OPS.setAppPermission, { originator, kind, grant, expiresAt: grant ? expiryOf(until) : undefined, ...what });
    notifySuccess(`${p.originator} is ${p.state} ${p.summary}.`);
    setName('');
    await props.onSaved();
  };
  const granting = useSubmit(submit(true), fieldNames);
  const denying = useSubmit(submit(false), fieldNames);
  const errors = { ...denying.fieldErrors, ...granting.fieldErrors };
  const nameError = errors.protocol ?? errors.basket ?? errors.certificateType ?? errors.asset;
  const nameLabel = { protocol: 'Protocol name', basket: 'Basket', certificate: 'Certificate type (base64)', asset: 'Asset' }[kind];
  const error = granting.error ?? denying.error;

  return (
    <Paper component="section" aria-labelledby="grant-ahead" withBorder p="md">
      <Title order={3} size="h4" id="grant-ahead" mb="xs">
        Grant a permission before it is asked for
      </Title>
      <form onSubmit={granting.onSubmit} noValidate>
        <Stack gap="sm">
          <Group align="flex-start">
            <TextInput
              label="App"
              required
              value={originator}
              onChange={(e) => setOriginator(e.currentTarget.value)}
              error={errors.originator}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: '1 1 200px', maxWidth: 320 }}
            />
            <Select
              label="Kind"
              data={[
                { value: 'protocol', label: 'Protocol' },
                { value: 'basket', label: 'Basket' },
                { value: 'certificate', label: 'Certificate' },
                { value: 'asset', label: 'Asset (token or ordinal)' },
              ]}
              value={kind}
              onChange={(v) => setKind((v as Kind) ?? 'protocol')}
              allowDeselect={false}
              w={200}
            />
            {kind === 'protocol' && (
              <Select
                label="Security level"
                data={[
                  ...(privileged ? [{ value: '0', label: '0 (open for everyday keys)' }] : []),
                  { value: '1', label: '1 (every counterparty)' },
                  { value: '2', label: '2 (per counterparty)' },
                ]}
                value={level}
                onChange={(v) => setLevel(v ?? '1')}
                allowDeselect={false}
                error={errors.securityLevel}
                // Wide enough for its longest choice, "0 (open for everyday keys)".
                w={250}
              />
            )}
            {kind === 'protocol' && (
              <Checkbox
                mt={30}
                label="Privileged keys"
                description="The wallet's separate privileged keys (privileged: true), not its everyday keys"
                checked={privileged}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setPrivileged(on);
                  if (!on && level === '0') setLevel('1');
                }}
              />
            )}
          </Group>
          <Group align="flex-start">
            <TextInput
              label={nameLabel}
              description={kind === 'asset' ? 'ordinal, or token:<tokenId>' : undefined}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={nameError}
              style={{ flex: '1 1 240px', maxWidth: 420 }}
            />
            {kind === 'protocol' && level === '2' && (
              <TextInput
                label="Counterparty"
                description="A public key, self, anyone, or * for every one"
                value={counterparty}
                onChange={(e) => setCounterparty(e.currentTarget.value)}
                error={errors.counterparty}
                style={{ flex: '1 1 240px', maxWidth: 420 }}
              />
            )}
            {kind === 'certificate' && (
              <TextInput
                label="Fields it may disclose"
                description="Comma-separated; empty: every field"
                value={fields}
                onChange={(e) => setFields(e.currentTarget.value)}
                error={errors.fields}
              />
            )}
            <TextInput
              type="datetime-local"
              label="Until (optional)"
              value={until}
              onChange={(e) => setUntil(e.currentTarget.value)}
              error={errors.expiresAt}
            />
          </Group>
          <Group gap="xs">
            <Button type="submit" loading={granting.busy}>
              Grant
            </Button>
            <Button color="red" variant="light" loading={denying.busy} onClick={() => void denying.run()}>
              Deny
            </Button>
          </Group>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
