import { Alert, Button, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type BalanceOutput } from '../../../shared/operations.js';
import { isNftProtocol, isTokenProtocol } from '../../../shared/token-protocols.js';
import { CopyAction } from '../../components/CopyField.js';
import { notifySuccess } from '../../components/notify.js';
import { useLoad } from '../../components/useLoad.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { PaymentAwaitingApproval, type AwaitingApproval } from '../policies/PaymentPolicy.js';
import { offeredWords, wantedWords } from './swap-words.js';
import { rethrowUnlessAwaiting, waitingOf } from './swap-approval.js';
import type { OutputOf } from '../../../shared/operation.js';
import { humaniseMessage, LocalCheck } from '../../components/errors.js';

type Made = OutputOf<typeof OPS.offer>['offers'][number];
const blankToUndefined = (v: number | string) => (v === '' ? undefined : Number(v));

/** Offers one held token (an amount, or an NFT serial) for BSV or for another token; shows the offer's hex to hand to a taker. */
export function MakeOffer({ walletId, refresh, onMade }: { walletId: string | null; refresh: number; onMade: () => void }) {
  const call = useSession((s) => s.call);
  const holdings = useLoad<BalanceOutput>(
    () => call(OPS.balance, { walletId: walletId ?? undefined, maxResults: 1000 }),
    [walletId, refresh],
  );
  // Swaps move template tokens (open template and STAS); BSV-21 tokens are not offered here.
  const tokens = (holdings.data?.coins ?? []).filter((c) => c.tokenId && isTokenProtocol(c.protocol));
  const [tokenId, setTokenId] = useState<string | null>(null);
  const [sn, setSn] = useState<string | null>(null);
  const [tokenAmount, setTokenAmount] = useState<number | string>('');
  const [wantKind, setWantKind] = useState<'BSV' | 'token'>('BSV');
  const [bsv, setBsv] = useState('');
  const [wantedTokenId, setWantedTokenId] = useState('');
  const [wantedAmount, setWantedAmount] = useState<number | string>('');
  const [wantedSn, setWantedSn] = useState<number | string>('');
  const [made, setMade] = useState<Made | null>(null);
  const [awaiting, setAwaiting] = useState<AwaitingApproval | null>(null);
  const coin = tokens.find((c) => c.tokenId === tokenId) ?? null;
  const nft = coin ? isNftProtocol(coin.protocol) : false;

  const submit = useSubmit(async () => {
    setMade(null);
    setAwaiting(null);
    if (!coin) throw new LocalCheck('Choose the token to offer.');
    // Refused, never clamped: more than is held is not quietly "everything held".
    if (!nft && tokenAmount !== '' && (!Number.isSafeInteger(Number(tokenAmount)) || Number(tokenAmount) < 1))
      throw new LocalCheck('Tokens to offer must be a whole number, 1 or more.');
    if (!nft && tokenAmount !== '' && Number(tokenAmount) > (coin.amount ?? 0))
      throw new LocalCheck(`You hold ${coin.amount ?? 0} ${coin.symbol}: ${tokenAmount} is more than that.`);
    const item = {
      tokenId: coin.tokenId!,
      ...(nft ? { sn: Number(sn) } : { tokenAmount: blankToUndefined(tokenAmount) }),
      ...(wantKind === 'BSV'
        ? { type: 'BSV', amount: bsv.trim() }
        : {
            type: 'token',
            wantedTokenId: wantedTokenId.trim(),
            wantedAmount: blankToUndefined(wantedAmount),
            wantedSn: blankToUndefined(wantedSn),
          }),
    };
    // An offer for tokens is never given out as hex (a taker could pay with a look-alike): Keystead keeps it,
    // and a wallet of the organisation takes it by its id (exchangeSwap).
    const op = wantKind === 'BSV' ? OPS.offer : OPS.exchangeOffer;
    const r = await call(op, { walletId: walletId ?? undefined, dataArray: [item] }).catch(rethrowUnlessAwaiting(setAwaiting));
    if (!r) return;
    const waiting = waitingOf(r.errors);
    if (waiting) return setAwaiting(waiting);
    if (r.errors.length) throw new LocalCheck(humaniseMessage(r.errors.map((e) => e.msg).join('; ')));
    setMade(r.offers[0]);
    notifySuccess('Offer made');
    onMade();
  });

  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Make an offer
      </Title>
      <form onSubmit={submit.onSubmit} aria-label="Make an offer">
        <Stack gap="sm">
          {holdings.error && <Alert color="red">{holdings.error}</Alert>}
          <Group grow align="flex-start">
            <Select
              label="Token to offer"
              placeholder={tokens.length ? 'Choose a held token' : 'This wallet holds no tokens'}
              data={tokens.map((c) => ({ value: c.tokenId!, label: `${c.symbol} — ${c.name ?? c.tokenId}` }))}
              value={tokenId}
              onChange={(v) => {
                setTokenId(v);
                const next = tokens.find((c) => c.tokenId === v);
                setSn(next?.sn?.length ? String(next.sn[0]) : null);
              }}
              required
            />
            {coin &&
              (nft ? (
                <Select
                  label="Serial to offer"
                  data={(coin.sn ?? []).map((n) => ({ value: String(n), label: `#${n}` }))}
                  value={sn}
                  onChange={setSn}
                  allowDeselect={false}
                  required
                />
              ) : (
                <NumberInput
                  hideControls
                  label="Tokens to offer"
                  description={`You hold ${coin.amount ?? 0}; left empty, your largest token output`}
                  value={tokenAmount}
                  onChange={setTokenAmount}
                  clampBehavior="none"
                  allowNegative={false}
                  allowDecimal={false}
                />
              ))}
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="wanted-kind-label">
              In return
            </Text>
            <SegmentedControl
              aria-labelledby="wanted-kind-label"
              value={wantKind}
              onChange={(v) => setWantKind(v as 'BSV' | 'token')}
              data={[
                { value: 'BSV', label: 'BSV' },
                { value: 'token', label: 'Another token' },
              ]}
            />
          </Stack>
          {wantKind === 'BSV' ? (
            <TextInput
              label="BSV wanted"
              description="In BSV, e.g. 0.0001"
              value={bsv}
              onChange={(e) => setBsv(e.currentTarget.value)}
              inputMode="decimal"
              required
            />
          ) : (
            <Group grow align="flex-start">
              <TextInput label="Wanted token id" value={wantedTokenId} onChange={(e) => setWantedTokenId(e.currentTarget.value)} required />
              <NumberInput
                hideControls
                label="Wanted tokens"
                value={wantedAmount}
                onChange={setWantedAmount}
                min={1}
                allowDecimal={false}
              />
              <NumberInput
                hideControls
                label="Wanted serial"
                description="For an NFT"
                value={wantedSn}
                onChange={setWantedSn}
                min={1}
                allowDecimal={false}
              />
            </Group>
          )}
          {submit.error && (
            <Alert color="red" role="alert">
              {submit.error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={submit.busy}>
              Make offer
            </Button>
          </Group>
        </Stack>
      </form>
      {awaiting && <PaymentAwaitingApproval awaiting={awaiting} />}
      {made && (
        <Alert color="teal" title="Offer made" mt="md" data-testid="offer-made">
          <Stack gap={6}>
            <Text size="sm">
              Offers <b>{offeredWords(made.offered)}</b> for <b>{wantedWords(made.wanted)}</b>, paid to {made.wanted.to}.
            </Text>
            {made.swapHex === '' ? (
              <Text size="sm" data-testid="offer-kept">
                Kept by Keystead as offer <b>{made.offerId}</b>: an offer for tokens is never handed out as hex, since whoever took it could
                pay with look-alike tokens. A wallet of this organisation takes it by this id (exchangeSwap), paying with tokens Keystead
                has proven. Withdraw it under My offers.
              </Text>
            ) : (
              <Group align="flex-start" gap="xs" wrap="nowrap">
                <Textarea
                  label="Offer hex"
                  description="Hand this to the taker; it can be taken once, until you withdraw it."
                  value={made.swapHex}
                  readOnly
                  autosize
                  maxRows={6}
                  styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
                  style={{ flex: 1 }}
                  data-testid="offer-hex"
                />
                <CopyAction label="offer hex" value={made.swapHex} />
              </Group>
            )}
          </Stack>
        </Alert>
      )}
    </Paper>
  );
}
