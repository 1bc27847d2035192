import {
  Alert, Badge, Button, Card, Code, Group, Image, Loader, Modal, NumberInput, Paper, SegmentedControl, Select, SimpleGrid, Stack, Stepper, Table, Tabs, Text,
  Textarea, TextInput, Title,
} from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS, type BalanceOutput, type LookupCoin, type TokenDetailsOutput } from '../../shared/operations.js';
import { STAS_PROTOCOL_IDS, TOKEN_PROTOCOL_IDS } from '../../shared/token-schemas.js';
import { CopyField } from '../components/CopyField.js';
import { formatSats } from '../components/format.js';
import { notifySuccess } from '../components/notify.js';
import { useLoad } from '../components/useLoad.js';
import { useSubmit } from '../components/useSubmit.js';
import { useWallets } from '../components/useWallets.js';
import { WalletSelect } from '../components/WalletSelect.js';
import { useSession } from '../state/store.js';

const NFT = new Set(['KST-789', 'STAS-789']);
const isNft = (protocol: string) => NFT.has(protocol);

/** Tokens: what each wallet holds, issuing, sending and redeeming, NFT serials, and (admins) the licensed templates. */
export function TokensView() {
  const role = useSession((s) => s.me!.role);
  const wallets = useWallets();
  const [walletId, setWalletId] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const changed = () => {
    setRefresh((n) => n + 1);
    void wallets.reload();
  };
  return (
    <Stack maw={1000}>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Tokens</Title>
        <WalletSelect wallets={wallets.data} value={walletId} onChange={setWalletId} />
      </Group>
      <Tabs defaultValue="holdings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="holdings">Holdings</Tabs.Tab>
          {canCall(role, OPS.issueToken) && <Tabs.Tab value="issue">Issue</Tabs.Tab>}
          {canCall(role, OPS.installTokenTemplate) && <Tabs.Tab value="templates">Templates</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="holdings" pt="md">
          <Holdings walletId={walletId} refresh={refresh} onChanged={changed} />
        </Tabs.Panel>
        <Tabs.Panel value="issue" pt="md">
          <IssueForm walletId={walletId} onIssued={changed} />
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="md">
          <Templates />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Holdings({ walletId, refresh, onChanged }: { walletId: string | null; refresh: number; onChanged: () => void }) {
  const call = useSession((s) => s.call);
  const role = useSession((s) => s.me!.role);
  const holdings = useLoad<BalanceOutput>(() => call(OPS.balance, { walletId: walletId ?? undefined, maxResults: 1000 }), [walletId, refresh]);
  const [open, setOpen] = useState<string | null>(null);
  const [action, setAction] = useState<{ kind: 'send' | 'redeem'; coin: LookupCoin } | null>(null);
  const tokens = (holdings.data?.coins ?? []).filter((c) => c.tokenId);
  return (
    <Stack>
      {holdings.error && <Alert color="red">{holdings.error}</Alert>}
      {holdings.loading && !holdings.data && <Loader size="sm" />}
      {holdings.data && tokens.length === 0 && <Text c="dimmed">This wallet holds no tokens yet. Issue one, or receive one at the wallet's address or paymail.</Text>}
      {tokens.length > 0 && (
        <ScrollTable striped highlightOnHover aria-label="Token holdings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Token</Table.Th>
              <Table.Th>Protocol</Table.Th>
              <Table.Th ta="right">Held</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((c) => (
              <Table.Tr key={c.tokenId}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {c.image && <Image src={c.image} alt="" w={28} h={28} radius="sm" fit="contain" fallbackSrc="" />}
                    <div>
                      <Text fw={600}>{c.symbol}</Text>
                      <Text size="xs" c="dimmed">
                        {c.name}
                      </Text>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{c.protocol}</Badge>
                </Table.Td>
                <Table.Td ta="right" data-testid={`held-${c.symbol}`}>
                  {isNft(c.protocol) ? `${c.amount} (#${(c.sn ?? []).join(', #')})` : formatAmount(c.amount ?? 0, c.decimals ?? 0)}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setOpen(c.tokenId!)}>
                      Details
                    </Button>
                    {canCall(role, OPS.send) && (
                      <Button size="xs" onClick={() => setAction({ kind: 'send', coin: c })}>
                        Send
                      </Button>
                    )}
                    {canCall(role, OPS.redeemToken) && (
                      <Button size="xs" color="orange" variant="light" onClick={() => setAction({ kind: 'redeem', coin: c })}>
                        Redeem
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      {open && <TokenDetails tokenId={open} onClose={() => setOpen(null)} />}
      {action && (
        <MoveTokens
          kind={action.kind}
          coin={action.coin}
          walletId={walletId}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            onChanged();
            void holdings.reload();
          }}
        />
      )}
    </Stack>
  );
}

/** 12345 with 2 decimals → "123.45". */
function formatAmount(tokens: number, decimals: number): string {
  if (!decimals) return tokens.toLocaleString('en-US');
  return (tokens / 10 ** decimals).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function TokenDetails({ tokenId, onClose }: { tokenId: string; onClose: () => void }) {
  const call = useSession((s) => s.call);
  const d = useLoad<TokenDetailsOutput>(() => call(OPS.tokenDetails, { id: tokenId }), [tokenId]);
  const t = d.data;
  return (
    <Modal opened onClose={onClose} title={t ? `${t.name} (${t.symbol})` : 'Token'} size="xl">
      {d.error && <Alert color="red">{d.error}</Alert>}
      {t && (
        <Stack gap="sm" data-testid="token-details">
          {t.image && <Image src={t.image} alt={t.name} h={120} fit="contain" />}
          {t.description && <Text>{t.description}</Text>}
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Row label="Token id">
                <CopyField label="Token id" value={t.tokenId} />
              </Row>
              <Row label="Protocol">{t.protocolId}</Row>
              <Row label="Supply">
                {formatAmount(t.supply, t.decimals)} issued · {formatAmount(t.circulatingSupply, t.decimals)} circulating
              </Row>
              <Row label="Satoshis per token">{t.satsPerToken}</Row>
              <Row label="Splittable">{t.splittable ? 'yes' : 'no (one token per output)'}</Row>
              <Row label="Redemption address">
                <CopyField label="Redemption address" value={t.redeemAddr} />
              </Row>
              <Row label="Contract transaction">
                <Code>{t.contractTxid ?? '—'}</Code>
              </Row>
              <Row label="Issue transaction">
                <Code>{t.issueTxid ?? '—'}</Code>
              </Row>
            </Table.Tbody>
          </Table>
          {Object.keys(t.properties).length > 0 && (
            <Paper withBorder p="xs">
              <Text size="sm" fw={600}>
                Properties
              </Text>
              <Code block>{JSON.stringify(t.properties, null, 2)}</Code>
            </Paper>
          )}
          {t.serials && (
            <>
              <Title order={5}>Serials</Title>
              <SimpleGrid cols={{ base: 2, sm: 3 }} data-testid="nft-gallery">
                {t.serials.map((s) => (
                  <Card key={s.sn} withBorder padding="sm">
                    <Group justify="space-between">
                      <Text fw={700}>#{s.sn}</Text>
                      {s.redeemed ? <Badge color="gray">redeemed</Badge> : <Badge color="teal">live</Badge>}
                    </Group>
                    {s.data.length ? s.data.map((line, i) => <Text key={i} size="sm">{line}</Text>) : <Text size="sm" c="dimmed">no data</Text>}
                    {s.txid && (
                      <Text size="xs" c="dimmed" ff="monospace">
                        {s.txid.slice(0, 12)}…:{s.vout}
                      </Text>
                    )}
                  </Card>
                ))}
              </SimpleGrid>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={190}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function MoveTokens({ kind, coin, walletId, onClose, onDone }: { kind: 'send' | 'redeem'; coin: LookupCoin; walletId: string | null; onClose: () => void; onDone: () => void }) {
  const call = useSession((s) => s.call);
  const nft = isNft(coin.protocol);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState<number | string>(nft ? 1 : '');
  const [sn, setSn] = useState<string | null>(coin.sn?.length ? String(coin.sn[0]) : null);
  const [notes, setNotes] = useState('');
  const go = useSubmit(async () => {
    const item = nft ? { tokenId: coin.tokenId!, sn: Number(sn) } : { tokenId: coin.tokenId!, amount: Number(amount) };
    const r =
      kind === 'send'
        ? await call(OPS.send, { walletId: walletId ?? undefined, dataArray: [{ ...item, to, notes: notes || undefined }] })
        : await call(OPS.redeemToken, { walletId: walletId ?? undefined, dataArray: [item] });
    if (r.errors.length) throw new Error(r.errors.map((e) => e.msg).join('; '));
    notifySuccess(`${kind === 'send' ? 'Sent' : 'Redeemed'}: ${r.txIds.map((t) => t.slice(0, 12)).join(', ')}…`);
    onDone();
  });
  return (
    <Modal opened onClose={onClose} title={`${kind === 'send' ? 'Send' : 'Redeem'} ${coin.symbol}`}>
      <form onSubmit={go.onSubmit}>
        <Stack gap="sm">
          {kind === 'send' && <TextInput label="To" description="A paymail or an address" value={to} onChange={(e) => setTo(e.currentTarget.value)} required data-autofocus />}
          {nft ? (
            <Select label="Serial" data={(coin.sn ?? []).map((n) => ({ value: String(n), label: `#${n}` }))} value={sn} onChange={setSn} allowDeselect={false} required />
          ) : (
            <NumberInput hideControls label="Tokens" description={`You hold ${coin.amount}`} value={amount} onChange={setAmount} min={1} max={coin.amount} allowDecimal={false} required />
          )}
          {kind === 'send' && <TextInput label="Note" value={notes} onChange={(e) => setNotes(e.currentTarget.value)} maxLength={500} />}
          {kind === 'redeem' && (
            <Text size="sm" c="dimmed">
              The tokens are dissolved: their satoshis ({formatSats((nft ? 1 : Number(amount) || 0) * (coin.satsPerToken ?? 0))}) go to the redemption address {coin.redeemAddr}.
            </Text>
          )}
          {go.error && (
            <Alert color="red" role="alert">
              {go.error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={go.busy} color={kind === 'redeem' ? 'orange' : undefined}>
              {kind === 'send' ? 'Send' : 'Redeem'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Issue form: fungible or NFT, the STAS schema's properties, media and an image preview; progress while both transactions go out. */
function IssueForm({ walletId, onIssued }: { walletId: string | null; onIssued: () => void }) {
  const call = useSession((s) => s.call);
  const [kind, setKind] = useState<'fungible' | 'nft'>('fungible');
  const [protocolId, setProtocolId] = useState<string>('KST-20');
  const [name, setName] = useState('');
  const [symbol, setSymbol] = useState('');
  const [supply, setSupply] = useState<number | string>(1000);
  const [satsPerToken, setSatsPerToken] = useState<number | string>(1);
  const [decimals, setDecimals] = useState<number | string>(0);
  const [description, setDescription] = useState('');
  const [image, setImage] = useState('');
  const [organisation, setOrganisation] = useState('');
  const [email, setEmail] = useState('');
  const [terms, setTerms] = useState('');
  const [website, setWebsite] = useState('');
  const [mediaUri, setMediaUri] = useState('');
  const [serialData, setSerialData] = useState('');
  const [issued, setIssued] = useState<{ tokenId: string; contractTxid: string; issueTxid: string } | null>(null);
  const protocols = TOKEN_PROTOCOL_IDS.filter((p) => (kind === 'nft' ? isNft(p) : !isNft(p)));
  const chooseKind = (k: string) => {
    setKind(k as 'fungible' | 'nft');
    setProtocolId(k === 'nft' ? 'KST-789' : 'KST-20');
    if (k === 'nft') setDecimals(0);
  };
  const submit = useSubmit(async () => {
    setIssued(null);
    // One line per serial: "first line of data | second line".
    const data = kind === 'nft' && serialData.trim() ? Object.fromEntries(serialData.split('\n').map((line, i) => [String(i + 1), line.split('|').map((s) => s.trim()).filter(Boolean)])) : undefined;
    const properties = {
      ...(terms ? { legal: { terms } } : {}),
      ...(organisation || email ? { issuer: { ...(organisation ? { organisation } : {}), ...(email ? { email } : {}) } } : {}),
      ...(website || mediaUri ? { meta: { ...(website ? { website } : {}), ...(mediaUri ? { media: [{ URI: mediaUri, type: 'image' }] } : {}) } } : {}),
    };
    const r = await call(OPS.issueToken, {
      walletId: walletId ?? undefined, name, protocolId, symbol, tokenSupply: Number(supply), satsPerToken: Number(satsPerToken), decimals: Number(decimals),
      description: description || undefined, image: image || undefined, properties, data,
    });
    setIssued(r);
    notifySuccess(`${symbol} issued`);
    onIssued();
  });
  const imageOk = /^https?:\/\/\S+$/i.test(image);
  return (
    <Stack>
      <Paper withBorder p="md">
        <form onSubmit={submit.onSubmit}>
          <Stack gap="sm">
            <SegmentedControl value={kind} onChange={chooseKind} data={[{ value: 'fungible', label: 'Fungible token' }, { value: 'nft', label: 'NFT' }]} />
            <Group grow align="flex-start">
              <Select label="Protocol" data={protocols.map((p) => ({ value: p, label: STAS_PROTOCOL_IDS.includes(p as never) ? `${p} (licensed template)` : `${p} (Keystead open template)` }))} value={protocolId} onChange={(v) => v && setProtocolId(v)} allowDeselect={false} />
              <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={32} required />
              <TextInput label="Symbol" description="1 to 9 letters or digits" value={symbol} onChange={(e) => setSymbol(e.currentTarget.value.toUpperCase())} maxLength={9} required />
            </Group>
            <Group grow align="flex-start">
              <NumberInput hideControls label={kind === 'nft' ? 'Number of NFTs' : 'Supply (tokens)'} value={supply} onChange={setSupply} min={1} allowDecimal={false} thousandSeparator="," required />
              <NumberInput hideControls label="Satoshis per token" value={satsPerToken} onChange={setSatsPerToken} min={1} allowDecimal={false} required />
              {kind === 'fungible' && <NumberInput hideControls label="Decimals" value={decimals} onChange={setDecimals} min={0} max={8} allowDecimal={false} />}
            </Group>
            <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={512} autosize minRows={2} />
            <Group align="flex-start" grow>
              <TextInput label="Image URL" value={image} onChange={(e) => setImage(e.currentTarget.value)} placeholder="https://…" />
              {imageOk && <Image src={image} alt="Token image preview" h={80} fit="contain" data-testid="image-preview" />}
            </Group>
            <Title order={5}>Properties</Title>
            <Group grow align="flex-start">
              <TextInput label="Issuer organisation" value={organisation} onChange={(e) => setOrganisation(e.currentTarget.value)} />
              <TextInput label="Issuer e-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            </Group>
            <Group grow align="flex-start">
              <TextInput label="Legal terms" value={terms} onChange={(e) => setTerms(e.currentTarget.value)} />
              <TextInput label="Website" value={website} onChange={(e) => setWebsite(e.currentTarget.value)} />
              <TextInput label="Media URI" value={mediaUri} onChange={(e) => setMediaUri(e.currentTarget.value)} />
            </Group>
            {kind === 'nft' && (
              <Textarea
                label="Data per serial"
                description="One line per NFT, in order (#1, #2, …); separate several data items with |"
                value={serialData}
                onChange={(e) => setSerialData(e.currentTarget.value)}
                autosize
                minRows={3}
              />
            )}
            {submit.busy && (
              <Stepper active={1} size="sm" data-testid="issue-progress">
                <Stepper.Step label="Contract transaction" description="issuer P2PKH + schema" loading />
                <Stepper.Step label="Issue transaction" description="the token outputs" />
              </Stepper>
            )}
            {submit.error && (
              <Alert color="red" role="alert">
                {submit.error}
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={submit.busy}>
                Issue
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {issued && (
        <Alert color="teal" title="Issued" data-testid="issued">
          <Stack gap={4}>
            <CopyField label="Token id" value={issued.tokenId} />
            <Text size="sm">Contract {issued.contractTxid}</Text>
            <Text size="sm">Issue {issued.issueTxid}</Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** The licensed STAS templates the organisation installed (admins). */
function Templates() {
  const call = useSession((s) => s.call);
  const list = useLoad(() => call(OPS.listTokenTemplates, {}));
  const [protocolId, setProtocolId] = useState<string>('STAS-20');
  const [template, setTemplate] = useState('');
  const install = useSubmit(async () => {
    await call(OPS.installTokenTemplate, { protocolId, template });
    setTemplate('');
    notifySuccess(`${protocolId} template installed`);
    await list.reload();
  });
  const remove = async (id: string) => {
    await call(OPS.deleteTokenTemplate, { protocolId: id });
    await list.reload();
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        STAS templates are licensed, so Keystead does not ship them. Paste the locking-script hex your licence gives you, with its [destinationPublicKeyHash] and
        [redemptionPublicKeyHash] placeholders; it stays in the encrypted database. The headless host also reads them from --token-templates &lt;dir&gt;. Its
        structure is checked against the STAS family, and each installed template shows its SHA-256 (of the text as installed): compare it with the one your
        licensor gives.
      </Text>
      {list.error && <Alert color="red">{list.error}</Alert>}
      <ScrollTable aria-label="Installed templates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Protocol</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>SHA-256</Table.Th>
            <Table.Th>Installed</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(list.data?.templates ?? []).map((t) => (
            <Table.Tr key={t.protocolId}>
              <Table.Td>{t.protocolId}</Table.Td>
              <Table.Td>{t.bytes} bytes</Table.Td>
              <Table.Td>
                {/* The whole hash, selectable, to compare with the one the licensor publishes. */}
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all', userSelect: 'all' }} aria-label={`SHA-256 of the ${t.protocolId} template`}>
                  {t.sha256}
                </Text>
                {t.problem && (
                  <Text size="xs" c="red">
                    Not used: {t.problem}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{new Date(t.installedAt).toLocaleString()}</Table.Td>
              <Table.Td>{t.source === 'flag' ? '--token-templates' : 'installed here'}</Table.Td>
              <Table.Td>
                <Button size="xs" color="red" variant="subtle" onClick={() => void remove(t.protocolId)}>
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
          {list.data?.templates.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={6}>
                <Text c="dimmed">None installed: KST-20 and KST-789 work without any.</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </ScrollTable>
      <Paper withBorder p="md">
        <form onSubmit={install.onSubmit}>
          <Stack gap="sm">
            <Select label="Protocol" data={[...STAS_PROTOCOL_IDS]} value={protocolId} onChange={(v) => v && setProtocolId(v)} allowDeselect={false} />
            <Textarea label="Template (hex with placeholders)" value={template} onChange={(e) => setTemplate(e.currentTarget.value)} autosize minRows={3} maxRows={8} ff="monospace" required />
            {install.error && <Alert color="red">{install.error}</Alert>}
            <Group>
              <Button type="submit" loading={install.busy}>
                Install
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
