import { Alert, Button, Group, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { OutputOf } from '../../../shared/operation.js';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { CopyField } from '../../components/CopyField.js';
import { LocalCheck } from '../../components/errors.js';
import { formatSats } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { PaymentAwaitingApproval, type AwaitingApproval } from '../policies/PaymentPolicy.js';
import { formatUnits, parseUnits } from './bsv21-amount.js';
import { rethrowUnlessAwaiting } from './swap-approval.js';

/**
 * Deploys and mints a BSV-21 token: one 1-satoshi output to the wallet inscribed with the deploy+mint. The
 * supply is typed in whole tokens; with decimals the contract's smallest units are supply × 10^decimals.
 */
export function Bsv21IssueForm({ walletId, onIssued }: { walletId: string | null; onIssued: () => void }) {
  const call = useSession((s) => s.call);
  const [sym, setSym] = useState('');
  const [supply, setSupply] = useState('');
  const [dec, setDec] = useState<number | string>(0);
  const [icon, setIcon] = useState('');
  const [deployed, setDeployed] = useState<(OutputOf<typeof OPS.deployBsv21> & { sym: string; supply: string; dec: number }) | null>(null);
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);
  const submit = useSubmit(async () => {
    setDeployed(null);
    setAwaiting(null);
    const decimals = Number(dec) || 0;
    const amt = parseUnits(supply, decimals);
    if (!amt) throw new LocalCheck(`Enter the supply as a positive number of tokens with at most ${decimals} decimals.`);
    const r = await call(OPS.deployBsv21, {
      walletId: walletId ?? undefined,
      sym: sym.trim(),
      amt,
      dec: decimals,
      icon: icon.trim() || undefined,
    }).catch(rethrowUnlessAwaiting(setAwaiting));
    if (!r) return;
    setDeployed({ ...r, sym: sym.trim(), supply: amt, dec: decimals });
    notifySuccess(`${sym.trim()} deployed`);
    onIssued();
  }, ['sym', 'amt', 'dec', 'icon']);
  return (
    <Stack>
      <Paper withBorder p="md">
        <form onSubmit={submit.onSubmit} aria-label="Issue a BSV-21 token">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              A 1Sat Ordinals fungible token: the whole supply is minted to this wallet in one 1-satoshi output. Its id is the deploy
              output, &lt;txid&gt;_0.
            </Text>
            <Group grow align="flex-start">
              <TextInput
                label="Token symbol"
                description="Up to 32 printable characters, no spaces"
                value={sym}
                onChange={(e) => setSym(e.currentTarget.value)}
                maxLength={32}
                error={submit.fieldErrors.sym}
                required
              />
              <TextInput
                label="Total supply"
                description="In whole tokens"
                value={supply}
                onChange={(e) => setSupply(e.currentTarget.value)}
                inputMode="decimal"
                error={submit.fieldErrors.amt}
                required
              />
              <NumberInput
                hideControls
                label="Decimal places"
                value={dec}
                onChange={setDec}
                min={0}
                max={18}
                allowDecimal={false}
                error={submit.fieldErrors.dec}
              />
            </Group>
            <TextInput
              label="Icon (optional)"
              description="The outpoint of an image inscription, <txid>_<vout>"
              value={icon}
              onChange={(e) => setIcon(e.currentTarget.value)}
              error={submit.fieldErrors.icon}
            />
            {submit.error && (
              <Alert color="red" role="alert">
                {submit.error}
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={submit.busy}>
                Deploy and mint
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {awaiting && <PaymentAwaitingApproval awaiting={awaiting} />}
      {deployed && (
        <Alert color="teal" title="Deployed" data-testid="issued-bsv21">
          <Stack gap={4}>
            <CopyField label="Token id" value={deployed.tokenId} />
            <Text size="sm">
              {formatUnits(deployed.supply, deployed.dec)} {deployed.sym} minted to this wallet; network fee {formatSats(deployed.fee)}.
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
