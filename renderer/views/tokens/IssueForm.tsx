import {
  Alert,
  Button,
  Group,
  Image,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Stepper,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { canCall, OPERATIONS as OPS } from '../../../shared/operations.js';
import { isNftProtocol, TOKEN_PROTOCOL_IDS, TOKEN_PROTOCOLS } from '../../../shared/token-protocols.js';
import { CopyField } from '../../components/CopyField.js';
import { notifySuccess } from '../../components/notify.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';
import { Bsv21IssueForm } from './Bsv21IssueForm.js';
import { LocalCheck } from '../../components/errors.js';

type Kind = 'fungible' | 'nft';
/** Keystead's open template, the licensed STAS templates, or a 1Sat Ordinals BSV-21 token (a form of its own). */
type Family = 'open' | 'stas' | 'bsv21';
/** The protocols that issue this kind of token in this family; the first is the one chosen when the kind is. */
const protocolsFor = (kind: Kind, family: Family) =>
  TOKEN_PROTOCOL_IDS.filter((p) => isNftProtocol(p) === (kind === 'nft') && TOKEN_PROTOCOLS[p].licensed === (family === 'stas'));

/** Issue: the token family first; then BSV-21's own form, or the template form (below). */
export function IssueForm({ walletId, onIssued }: { walletId: string | null; onIssued: () => void }) {
  const role = useSession((s) => s.me!.role);
  const [family, setFamily] = useState<Family>('open');
  const families = [
    { value: 'open', label: 'Open template' },
    { value: 'stas', label: 'STAS' },
    ...(canCall(role, OPS.deployBsv21) ? [{ value: 'bsv21', label: 'BSV-21' }] : []),
  ];
  return (
    <Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="token-family-label">
          Token family
        </Text>
        <SegmentedControl aria-labelledby="token-family-label" value={family} onChange={(v) => setFamily(v as Family)} data={families} />
      </Stack>
      {family === 'bsv21' ? (
        <Bsv21IssueForm walletId={walletId} onIssued={onIssued} />
      ) : (
        <TemplateIssueForm key={family} family={family} walletId={walletId} onIssued={onIssued} />
      )}
    </Stack>
  );
}

/** Template issue form: fungible or NFT, the STAS schema's properties, media, an image preview; progress while both transactions go out. */
function TemplateIssueForm({ family, walletId, onIssued }: { family: 'open' | 'stas'; walletId: string | null; onIssued: () => void }) {
  const call = useSession((s) => s.call);
  const [kind, setKind] = useState<Kind>('fungible');
  const [protocolId, setProtocolId] = useState<string>(protocolsFor('fungible', family)[0]);
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
  const protocols = protocolsFor(kind, family);
  const chooseKind = (k: string) => {
    setKind(k as Kind);
    setProtocolId(protocolsFor(k as Kind, family)[0]);
    if (k === 'nft') setDecimals(0);
  };
  const submit = useSubmit(async () => {
    setIssued(null);
    // Said in words and refused, never quietly changed into another number (the inputs do not clamp).
    const whole = (v: number | string, min: number, max = Number.MAX_SAFE_INTEGER) =>
      v !== '' && Number.isSafeInteger(Number(v)) && Number(v) >= min && Number(v) <= max;
    const wrong = [
      !whole(supply, 1) && `${kind === 'nft' ? 'Number of NFTs' : 'Supply'} must be a whole number, 1 or more.`,
      !whole(satsPerToken, 1) && 'Satoshis per token must be a whole number, 1 or more.',
      kind === 'fungible' && !whole(decimals, 0, 8) && 'Decimals must be a whole number from 0 to 8.',
    ].filter(Boolean);
    if (wrong.length) throw new LocalCheck(wrong.join(' '));
    // One line per serial: "first line of data | second line".
    const data =
      kind === 'nft' && serialData.trim()
        ? Object.fromEntries(
            serialData.split('\n').map((line, i) => [
              String(i + 1),
              line
                .split('|')
                .map((s) => s.trim())
                .filter(Boolean),
            ]),
          )
        : undefined;
    const properties = {
      ...(terms ? { legal: { terms } } : {}),
      ...(organisation || email ? { issuer: { ...(organisation ? { organisation } : {}), ...(email ? { email } : {}) } } : {}),
      ...(website || mediaUri
        ? { meta: { ...(website ? { website } : {}), ...(mediaUri ? { media: [{ URI: mediaUri, type: 'image' }] } : {}) } }
        : {}),
    };
    const r = await call(OPS.issueToken, {
      walletId: walletId ?? undefined,
      name,
      protocolId,
      symbol,
      tokenSupply: Number(supply),
      satsPerToken: Number(satsPerToken),
      decimals: Number(decimals),
      description: description || undefined,
      image: image || undefined,
      properties,
      data,
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
            <SegmentedControl
              value={kind}
              onChange={chooseKind}
              data={[
                { value: 'fungible', label: 'Fungible token' },
                { value: 'nft', label: 'NFT' },
              ]}
            />
            <Group grow align="flex-start">
              <Select
                label="Protocol"
                data={protocols.map((p) => ({
                  value: p,
                  label: TOKEN_PROTOCOLS[p].licensed ? `${p} (licensed template)` : `${p} (Keystead open template)`,
                }))}
                value={protocolId}
                onChange={(v) => v && setProtocolId(v)}
                allowDeselect={false}
              />
              <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={32} required />
              <TextInput
                label="Symbol"
                description="1 to 9 letters or digits"
                value={symbol}
                onChange={(e) => setSymbol(e.currentTarget.value.toUpperCase())}
                maxLength={9}
                required
              />
            </Group>
            <Group grow align="flex-start">
              <NumberInput
                hideControls
                label={kind === 'nft' ? 'Number of NFTs' : 'Supply (tokens)'}
                value={supply}
                onChange={setSupply}
                clampBehavior="none"
                allowDecimal={false}
                thousandSeparator=","
                required
              />
              <NumberInput
                hideControls
                label="Satoshis per token"
                value={satsPerToken}
                onChange={setSatsPerToken}
                clampBehavior="none"
                allowDecimal={false}
                required
              />
              {kind === 'fungible' && (
                <NumberInput
                  hideControls
                  label="Decimals"
                  description="0 to 8"
                  value={decimals}
                  onChange={setDecimals}
                  clampBehavior="none"
                  allowDecimal={false}
                />
              )}
            </Group>
            <Textarea
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              maxLength={512}
              autosize
              minRows={2}
            />
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
