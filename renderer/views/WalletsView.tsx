import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { PasswordField } from '../components/PasswordField.js';
import { HIDE_MEDIUM, ScrollTable, WhenNarrow } from '../components/ScrollTable.js';
import { useState } from 'react';
import { OPERATIONS as OPS, canCall, type WalletSummary } from '../../shared/operations.js';
import { WALLET_TYPES, type WalletTypeName } from '../../shared/wallet-schemas.js';
import { ApiError } from '../api/client.js';
import { messageOf } from '../components/errors.js';
import { notifySuccess } from '../components/notify.js';
import { SecretReveal } from '../components/SecretReveal.js';
import { TestCoins } from '../components/TestCoins.js';
import { formatBsv, formatSats } from '../components/format.js';
import { Amount } from '../components/Amount.js';
import { useSubmit } from '../components/useSubmit.js';
import { useSession } from '../state/store.js';
import { useWallets } from '../components/useWallets.js';
import { BLANK_PHRASE, derivationOf, gapLimitOf, PhraseImport, type PhraseChoice } from './PhraseImport.js';
import { PaymailModal } from './PaymailModal.js';

const TYPE_HELP: Record<WalletTypeName, string> = {
  standard: 'Encrypted on this computer; no extra password.',
  secure: 'Also sealed with a wallet password, needed to spend or to show the recovery phrase.',
  escrow: 'No wallet password, for programmatic flows.',
  shared: 'Usable by the members you name.',
};

/** The account's wallets: list, create or import, back up the recovery phrase, delete. */
export function WalletsView() {
  const role = useSession((s) => s.me!.role);
  const wallets = useWallets();
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState<WalletSummary | null>(null);
  const [deleting, setDeleting] = useState<WalletSummary | null>(null);
  const [naming, setNaming] = useState<WalletSummary | null>(null);
  // A new user's wallets are all empty: on the local test chain, the first one's test coins are offered here.
  const allEmpty = !!wallets.data?.length && wallets.data.every((w) => w.balance.confirmed + w.balance.unconfirmed === 0);
  const firstOwned = wallets.data?.find((w) => w.access === 'owner') ?? null;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Wallets</Title>
        {canCall(role, OPS.createWallet) && <Button onClick={() => setCreating(true)}>New wallet</Button>}
      </Group>
      {wallets.error && <Alert color="red">{wallets.error}</Alert>}
      {allEmpty && firstOwned && (
        <TestCoins walletId={firstOwned.walletID} walletTitle={firstOwned.walletTitle} onDone={() => void wallets.reload()} />
      )}
      {wallets.data?.length === 0 && (
        <Text c="dimmed">
          No wallets yet. {canCall(role, OPS.createWallet) ? 'Create your first with New wallet, or open Receive' : 'Open Receive'}, which
          makes one called “default” for you.
        </Text>
      )}
      {wallets.data && wallets.data.length > 0 && (
        <ScrollTable fit striped highlightOnHover verticalSpacing="sm" aria-label="Wallets">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Wallet</Table.Th>
              <Table.Th>Balance</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Type</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Paymail</Table.Th>
              <Table.Th className={HIDE_MEDIUM}>Owner</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {wallets.data.map((w) => (
              <Table.Tr key={w.walletID} data-testid={`wallet-row-${w.walletTitle}`}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    {w.walletLogo && <img src={w.walletLogo} alt="" width={24} height={24} style={{ borderRadius: 4 }} />}
                    <div style={{ minWidth: 0, maxWidth: 'min(320px, 30cqi)' }}>
                      <Text fw={500} truncate="end" title={w.walletTitle}>
                        {w.walletTitle}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={w.walletID}>
                        {w.walletID}
                      </Text>
                      {/* The columns a narrow table leaves out, said here. */}
                      <WhenNarrow below="medium">
                        <Text size="xs" c="dimmed" truncate="end" title={w.paymail ?? undefined}>
                          {w.type}
                          {w.paymail ? ` · ${w.paymail}${w.paymailActive ? '' : ' (inactive)'}` : ''}
                          {w.access === 'owner' ? '' : ` · ${w.owner}`}
                        </Text>
                      </WhenNarrow>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Amount satoshis={w.balance.confirmed + w.balance.unconfirmed} testId={`balance-${w.walletTitle}`} />
                  {/* The split is said only when some of it is unconfirmed: else it would repeat the amount above. */}
                  {w.balance.unconfirmed !== 0 && (
                    <Text size="xs" c="dimmed">
                      {formatSats(w.balance.confirmed)} confirmed · {formatSats(w.balance.unconfirmed)} unconfirmed
                    </Text>
                  )}
                </Table.Td>
                <Table.Td className={HIDE_MEDIUM}>
                  <Badge variant="light">{w.type}</Badge>
                </Table.Td>
                <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                  {w.paymail ? `${w.paymail}${w.paymailActive ? '' : ' (inactive)'}` : '—'}
                </Table.Td>
                <Table.Td className={HIDE_MEDIUM} style={{ overflowWrap: 'anywhere' }}>
                  {w.access === 'owner' ? 'You' : w.owner}
                </Table.Td>
                <Table.Td>
                  {/* The buttons wrap onto a second line in a narrow table, never off its edge. */}
                  <Group gap="xs" justify="flex-end">
                    <Button size="xs" variant="default" component="a" href={`#/receive?wallet=${encodeURIComponent(w.walletID)}`}>
                      Receive
                    </Button>
                    {w.access === 'owner' && canCall(role, OPS.updatePaymail) && (
                      <Button size="xs" variant="default" onClick={() => setNaming(w)} aria-label={`Paymail of ${w.walletTitle}`}>
                        Paymail
                      </Button>
                    )}
                    {w.access === 'owner' && canCall(role, OPS.exportMnemonic) && (
                      <Button size="xs" variant="default" onClick={() => setExporting(w)}>
                        Back up
                      </Button>
                    )}
                    {w.access === 'owner' && canCall(role, OPS.deleteWallet) && (
                      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(w)}>
                        Delete
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
      <CreateWalletModal opened={creating} onClose={() => setCreating(false)} onCreated={() => void wallets.reload()} />
      {exporting && <ExportModal wallet={exporting} onClose={() => setExporting(null)} />}
      {naming && <PaymailModal wallet={naming} onClose={() => setNaming(null)} onSaved={() => void wallets.reload()} />}
      {deleting && <DeleteModal wallet={deleting} onClose={() => setDeleting(null)} onDeleted={() => void wallets.reload()} />}
    </Stack>
  );
}

function CreateWalletModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: () => void }) {
  const call = useSession((s) => s.call);
  const blank = {
    walletTitle: '',
    type: 'standard' as WalletTypeName,
    walletLogo: '',
    paymail: '',
    paymailActivate: true,
    walletPassword: '',
    members: '',
  };
  const [f, setF] = useState(blank);
  const [phrase, setPhrase] = useState<PhraseChoice>(BLANK_PHRASE);
  const [importing, setImporting] = useState(false);
  // A BRC-100 root private key (from another BRC-100 wallet): held in this form only, never logged.
  const [rootKey, setRootKey] = useState<string | null>(null);
  const fromRootKey = rootKey !== null;
  const { busy, error, fieldErrors, onSubmit } = useSubmit(
    async () => {
      const r = await call(OPS.createWallet, {
        walletTitle: f.walletTitle,
        type: f.type,
        walletLogo: f.walletLogo || undefined,
        paymail: f.paymail || undefined,
        // No alias and Active: a numeric one (as the public service gives every wallet); Active off and no alias: none.
        paymailActivate: f.paymailActivate,
        walletPassword: f.type === 'secure' ? f.walletPassword : undefined,
        members: f.type === 'shared' ? f.members : undefined,
        mnemonicPhrase: importing ? phrase.mnemonicPhrase : undefined,
        derivationPath: importing ? derivationOf(phrase) : undefined,
        gapLimit: importing ? gapLimitOf(phrase) : undefined,
        rootKey: fromRootKey && f.type === 'standard' ? rootKey : undefined,
      });
      const made = `Wallet “${r.walletTitle}” ${importing ? `imported on ${r.derivationPath}` : fromRootKey ? 'created from its root key' : 'created'}${r.paymail ? ` with paymail ${r.paymail}` : ''}.`;
      // A new phrase exists only here until it is written down: say so now.
      notifySuccess(
        importing || fromRootKey
          ? made
          : `${made} Back up its recovery phrase now (Back up): it is the only way to restore the wallet elsewhere.`,
      );
      setF(blank);
      setPhrase(BLANK_PHRASE);
      setImporting(false);
      setRootKey(null);
      onCreated();
      onClose();
    },
    [...Object.keys(blank), 'mnemonicPhrase', 'derivationPath', 'rootKey', 'gapLimit'],
    { walletTitle: 'Title' },
  );
  const text = (k: keyof typeof f) => ({
    value: String(f[k]),
    error: fieldErrors[k],
    onChange: (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value }),
  });

  return (
    <Modal opened={opened} onClose={onClose} title="New wallet" centered size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Title" required description='"default" makes your default wallet.' {...text('walletTitle')} />
          <Select
            error={fieldErrors.type}
            label="Type"
            data={WALLET_TYPES.map((t) => ({ value: t, label: t[0].toUpperCase() + t.slice(1) }))}
            value={f.type}
            onChange={(v) => v && setF({ ...f, type: v as WalletTypeName })}
            description={TYPE_HELP[f.type]}
            allowDeselect={false}
          />
          {f.type === 'secure' && (
            <PasswordField
              label="Wallet password"
              required
              description="At least 8 characters. It cannot be recovered."
              {...text('walletPassword')}
            />
          )}
          {f.type === 'shared' && (
            <TextInput label="Members" description="E-mails of the users who may use it, separated by commas." {...text('members')} />
          )}
          <Group grow align="flex-start">
            <TextInput
              label="Paymail alias"
              placeholder="e.g. treasury"
              description="Empty: a numeric alias. Turn Active off for no paymail."
              {...text('paymail')}
            />
            <Switch
              mt={30}
              label="Active"
              checked={f.paymailActivate}
              onChange={(e) => setF({ ...f, paymailActivate: e.currentTarget.checked })}
            />
          </Group>
          <TextInput label="Logo URL" placeholder="https://…" {...text('walletLogo')} />
          <Checkbox
            label="Import from a recovery phrase"
            checked={importing}
            onChange={(e) => {
              setImporting(e.currentTarget.checked);
              if (e.currentTarget.checked) setRootKey(null);
            }}
          />
          {importing && <PhraseImport value={phrase} onChange={setPhrase} errors={fieldErrors} />}
          {f.type === 'standard' && (
            <Checkbox
              label="Import a BRC-100 root key"
              description="For a wallet coming from another BRC-100 wallet: apps then see the same identity key."
              checked={fromRootKey}
              onChange={(e) => {
                setRootKey(e.currentTarget.checked ? '' : null);
                if (e.currentTarget.checked) setImporting(false);
              }}
            />
          )}
          {fromRootKey && f.type === 'standard' && (
            <PasswordField
              label="Root private key"
              required
              autoComplete="off"
              description="64 hex digits or WIF. Its backup is this key: keep it offline."
              value={rootKey}
              error={fieldErrors.rootKey}
              onChange={(e) => setRootKey(e.currentTarget.value)}
            />
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create wallet
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ExportModal({ wallet, onClose }: { wallet: WalletSummary; onClose: () => void }) {
  const call = useSession((s) => s.call);
  const [password, setPassword] = useState('');
  const [walletPassword, setWalletPassword] = useState('');
  const [phrase, setPhrase] = useState<string | null>(null);
  // A wallet created from a BRC-100 root key has no phrase: its backup is the key.
  const [isRootKey, setIsRootKey] = useState(false);
  const { busy, error, onSubmit } = useSubmit(
    async () => {
      const r = await call(OPS.exportMnemonic, {
        walletId: wallet.walletID,
        password,
        walletPassword: wallet.type === 'secure' ? walletPassword : undefined,
      });
      setIsRootKey(r.rootKey !== undefined);
      setPhrase(r.mnemonic ?? r.rootKey ?? null);
    },
    [],
    { password: 'Your account password' },
  );

  return (
    <Modal opened onClose={onClose} title={`Back up “${wallet.walletTitle}”`} centered size="lg">
      {phrase ? (
        <Stack>
          <SecretReveal
            label={isRootKey ? 'BRC-100 root key' : 'recovery phrase'}
            secret={phrase}
            extra={[{ label: 'Derivation', value: wallet.derivationPath }]}
            notice={{
              title: 'Write it down now, on paper, and keep it offline',
              text: `Anyone with ${isRootKey ? 'this key' : 'these words'} controls the wallet. Keystead keeps it sealed in its encrypted database: you can show it again here (Wallets → Back up) with your account password${wallet.type === 'secure' ? ' and the wallet password' : ''}, as long as this Keystead and its data are there. If they are lost, ${isRootKey ? 'this key is' : 'these words are'} the only way to restore the wallet.`,
            }}
          />
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text size="sm">Confirm it is you before the recovery phrase is shown.</Text>
            <PasswordField label="Your account password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            {wallet.type === 'secure' && (
              <PasswordField
                label="Wallet password"
                required
                value={walletPassword}
                onChange={(e) => setWalletPassword(e.currentTarget.value)}
              />
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                Show recovery phrase
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function DeleteModal({ wallet, onClose, onDeleted }: { wallet: WalletSummary; onClose: () => void; onDeleted: () => void }) {
  const call = useSession((s) => s.call);
  const held = wallet.balance.confirmed + wallet.balance.unconfirmed;
  // What the wallet holds is known before asking: the question comes first, not after a refusal.
  const [funded, setFunded] = useState<number | null>(held > 0 ? held : null);
  const [force, setForce] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await call(OPS.deleteWallet, { walletId: wallet.walletID, force: force || undefined });
      notifySuccess(`Wallet “${wallet.walletTitle}” deleted.`);
      onDeleted();
      onClose();
    } catch (err) {
      // Coins arrived since the list was loaded: ask now.
      if (err instanceof ApiError && err.code === 'CONFLICT' && !force) setFunded(Math.max(held, 1));
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="Delete wallet" centered>
      <Stack>
        <Text size="sm">
          “{wallet.walletTitle}” and its addresses will be removed from Keystead. Without its recovery phrase its keys cannot be restored.
        </Text>
        {funded && (
          <Alert color="orange" title={`This wallet still holds ${formatBsv(funded)} BSV. Delete it anyway?`}>
            Move the coins to another wallet first, unless you have written down its recovery phrase.
            <Checkbox
              mt="sm"
              label="Yes, delete it: I have its recovery phrase, or accept losing the coins"
              checked={force}
              onChange={(e) => setForce(e.currentTarget.checked)}
            />
          </Alert>
        )}
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={busy} disabled={funded !== null && !force} onClick={() => void remove()}>
            Delete wallet
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
