import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
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
import { humaniseMessage, LocalCheck } from '../../components/errors.js';

type Inspection = OutputOf<typeof OPS.inspectOffer>['offers'][number];
type Taken = OutputOf<typeof OPS.swap>['swaps'][number];

/** How the offer is named: its hex (anyone's), or the id of one Keystead keeps for the organisation. */
type Source = 'hex' | 'id';

/**
 * Paste an offer's hex, or the id of an offer Keystead keeps (a token-for-token offer, or one with further
 * payments, made in the organisation), see what it gives and asks (only the engine's reading of it is shown),
 * and take it after a confirmation that states both sides and every further payment exactly.
 */
export function TakeOffer({ walletId, onTaken }: { walletId: string | null; onTaken: () => void }) {
  const call = useSession((s) => s.call);
  const [source, setSource] = useState<Source>('hex');
  const [hex, setHex] = useState('');
  const [offerId, setOfferId] = useState('');
  const named = () => (source === 'hex' ? { swapHex: hex.trim() } : { swapId: offerId.trim() });
  /** A changed offer is inspected again before it can be taken. */
  const edit = (set: (v: string) => void) => (e: { currentTarget: { value: string } }) => {
    set(e.currentTarget.value);
    setInspection(null);
  };
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [taken, setTaken] = useState<Taken | null>(null);
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);

  const inspect = useSubmit(async () => {
    setInspection(null);
    setTaken(null);
    setAwaiting(null);
    const r = await call(OPS.inspectOffer, { dataArray: [named()] });
    setInspection(r.offers[0] ?? null);
  });
  const take = useSubmit(async () => {
    const wallet = walletId ?? undefined;
    const r = await (
      source === 'hex'
        ? call(OPS.swap, { walletId: wallet, dataArray: [{ swapHex: hex.trim() }] })
        : call(OPS.exchangeSwap, { walletId: wallet, dataArray: [{ swapId: offerId.trim() }] })
    ).catch(rethrowUnlessAwaiting(setAwaiting));
    if (r) {
      const waiting = waitingOf(r.errors);
      if (waiting) setAwaiting(waiting);
      else if (r.errors.length) throw new LocalCheck(humaniseMessage(r.errors.map((e) => e.msg).join('; ')));
      else {
        setTaken(r.swaps[0] ?? null);
        notifySuccess('Swap completed');
      }
    }
    setConfirming(false);
    setInspection(null);
    setHex('');
    setOfferId('');
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
          <SegmentedControl
            aria-label="The offer is given as"
            value={source}
            onChange={(v) => {
              setSource(v as Source);
              setInspection(null);
            }}
            data={[
              { value: 'hex', label: 'Offer hex' },
              { value: 'id', label: 'Offer kept by Keystead' },
            ]}
          />
          {source === 'hex' ? (
            <Textarea
              label="Offer hex"
              description="Paste the offer you were given; it is checked before anything is paid."
              value={hex}
              onChange={edit(setHex)}
              autosize
              minRows={3}
              maxRows={8}
              styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              required
            />
          ) : (
            <TextInput
              label="Offer id"
              description="The id of an offer made in this organisation and kept by Keystead (its maker copies it from My offers)."
              value={offerId}
              onChange={edit(setOfferId)}
              styles={{ input: { fontFamily: 'monospace' } }}
              required
            />
          )}
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
              {i.payments.map((p, n) => (
                <DetailRow key={`${p.to}-${n}`} label={n === 0 ? 'Further payments (you pay)' : ''}>
                  {formatSats(p.satoshis)} to {p.to}
                </DetailRow>
              ))}
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
            {i.payments.map((p, n) => (
              <Text size="sm" key={`${p.to}-${n}`}>
                You also pay <b>{formatSats(p.satoshis)}</b> to {p.to}.
              </Text>
            ))}
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
