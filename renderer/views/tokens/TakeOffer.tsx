import { Alert, Badge, Button, Group, List, Modal, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import type { OutputOf } from '../../../shared/operation.js';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { formatSats } from '../../components/format.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { PaymentAwaitingApproval, type AwaitingApproval } from '../policies/PaymentPolicy.js';
import { DetailRow } from './DetailRow.js';
import { rethrowUnlessAwaiting, waitingOf } from './swap-approval.js';
import { offeredWords, wantedWords } from './swap-words.js';

type Inspection = OutputOf<typeof OPS.inspectOffer>['offers'][number];
type Taken = OutputOf<typeof OPS.swap>['swaps'][number];

/**
 * Paste an offer's hex, see what it gives and asks (the hex is someone else's: only the engine's reading of
 * it is shown), and take it after a confirmation that states both sides exactly.
 */
export function TakeOffer({ walletId, onTaken }: { walletId: string | null; onTaken: () => void }) {
  const call = useSession((s) => s.call);
  const [hex, setHex] = useState('');
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [taken, setTaken] = useState<Taken | null>(null);
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);

  const inspect = useSubmit(async () => {
    setInspection(null);
    setTaken(null);
    setAwaiting(null);
    const r = await call(OPS.inspectOffer, { dataArray: [{ swapHex: hex.trim() }] });
    setInspection(r.offers[0] ?? null);
  });
  const take = useSubmit(async () => {
    const r = await call(OPS.swap, { walletId: walletId ?? undefined, dataArray: [{ swapHex: hex.trim() }] }).catch(
      rethrowUnlessAwaiting(setAwaiting),
    );
    if (r) {
      const waiting = waitingOf(r.errors);
      if (waiting) setAwaiting(waiting);
      else if (r.errors.length) throw new Error(r.errors.map((e) => e.msg).join('; '));
      else {
        setTaken(r.swaps[0] ?? null);
        notifySuccess('Swap completed');
      }
    }
    setConfirming(false);
    setInspection(null);
    setHex('');
    onTaken();
  });

  const i = inspection;
  const takeable = !!i && i.valid && !!i.offered && !!i.wanted;
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Take an offer
      </Title>
      <form onSubmit={inspect.onSubmit} aria-label="Take an offer">
        <Stack gap="sm">
          <Textarea
            label="Offer hex"
            description="Paste the offer you were given; it is checked before anything is paid."
            value={hex}
            onChange={(e) => {
              setHex(e.currentTarget.value);
              setInspection(null);
            }}
            autosize
            minRows={3}
            maxRows={8}
            styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
            required
          />
          {inspect.error && (
            <Alert color="red" role="alert">
              {inspect.error}
            </Alert>
          )}
          <Group>
            <Button type="submit" variant="default" loading={inspect.busy}>
              Inspect
            </Button>
          </Group>
        </Stack>
      </form>
      {i && (
        <Stack gap="sm" mt="md" data-testid="offer-inspection">
          <Table aria-label="The offer">
            <Table.Tbody>
              <DetailRow label="You give">{i.wanted ? wantedWords(i.wanted) : '—'}</DetailRow>
              <DetailRow label="You get">{i.offered ? offeredWords(i.offered) : '—'}</DetailRow>
              <DetailRow label="Network fee (you pay)">{i.fee !== null ? formatSats(i.fee) : 'unknown'}</DetailRow>
              <DetailRow label="Paid to">{i.wanted?.to ?? i.makerAddress ?? '—'}</DetailRow>
              <DetailRow label="Check">
                <Group gap="xs">
                  <Badge color={i.valid ? 'teal' : 'red'} variant="light">
                    {i.valid ? 'Can be taken' : 'Cannot be taken'}
                  </Badge>
                  {i.spent && <Badge color="gray">Already taken or withdrawn</Badge>}
                  {i.offerId && <Badge variant="outline">One of this organisation's offers</Badge>}
                </Group>
              </DetailRow>
            </Table.Tbody>
          </Table>
          {i.problems.length > 0 && (
            <Alert color="red" title="Problems" role="alert">
              <List size="sm">
                {i.problems.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Group>
            <Button onClick={() => setConfirming(true)} disabled={!takeable}>
              Take offer
            </Button>
          </Group>
        </Stack>
      )}
      {awaiting && <PaymentAwaitingApproval awaiting={awaiting} />}
      {taken && (
        <Alert color="teal" title="Swap completed" mt="md" data-testid="swap-done">
          <Text size="sm">
            You gave {wantedWords(taken.wanted)} and got {offeredWords(taken.offered)}; network fee {formatSats(taken.fee)}.
          </Text>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {taken.txid}
          </Text>
        </Alert>
      )}
      {confirming && i?.offered && i.wanted && (
        <Modal opened onClose={() => setConfirming(false)} title="Take this offer?" centered>
          <Stack gap="sm">
            <Text size="sm">
              You give <b>{wantedWords(i.wanted)}</b> to {i.wanted.to}.
            </Text>
            <Text size="sm">
              You get <b>{offeredWords(i.offered)}</b>.
            </Text>
            <Text size="sm">
              This wallet also pays the network fee{i.fee !== null ? ` of about ${formatSats(i.fee)}` : ''}. Both sides move in one
              transaction, or neither does.
            </Text>
            {take.error && (
              <Alert color="red" role="alert">
                {take.error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button loading={take.busy} onClick={() => void take.run()}>
                Confirm swap
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Paper>
  );
}
