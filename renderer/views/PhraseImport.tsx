import { Alert, Button, Group, NumberInput, Radio, Select, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { ScrollTable } from '../components/ScrollTable.js';
import { useState } from 'react';
import { OPERATIONS as OPS, type OperationOutput } from '../../shared/operations.js';
import { messageOf } from '../components/errors.js';
import { formatBsv } from '../components/format.js';
import { useSession } from '../state/store.js';

export const DERIVATIONS = [
  { value: 'auto', label: 'Find it: scan the common paths (recommended)' },
  { value: 'bip44-bsv', label: "BSV standard (m/44'/236'/0')" },
  { value: 'bip44-btc', label: "Relysia, Centbee and early BSV wallets (m/44'/0'/0')" },
  { value: "m/0'", label: "Older wallets (m/0')" },
  { value: 'custom', label: 'Another account path…' },
];

export interface PhraseChoice {
  mnemonicPhrase: string;
  /** 'auto', a scheme name, or an account path. */
  derivation: string;
  customPath: string;
  /** How many unused addresses in a row end the scan (BIP44's 20 unless the user widens it). */
  gapLimit: number;
}

export const STANDARD_GAP = 20;
export const BLANK_PHRASE: PhraseChoice = { mnemonicPhrase: '', derivation: 'auto', customPath: '', gapLimit: STANDARD_GAP };

/** What createWallet and the scan get as gapLimit: nothing for the standard gap. */
export const gapLimitOf = (c: PhraseChoice) => (c.gapLimit > STANDARD_GAP ? c.gapLimit : undefined);

/** What createWallet gets as derivationPath for this choice. */
export const derivationOf = (c: PhraseChoice) => (c.derivation === 'custom' ? c.customPath.trim() : c.derivation);

type Scan = OperationOutput<'scanRecoveryPhrase'>;

/**
 * The import half of the new-wallet form: the phrase, where its coins are (a scan of the common paths and
 * the user's own), and the path to import with. Choosing a scanned path makes it the wallet's path.
 */
export function PhraseImport({
  value,
  onChange,
  errors = {},
}: {
  value: PhraseChoice;
  onChange: (c: PhraseChoice) => void;
  errors?: Record<string, string>;
}) {
  const call = useSession((s) => s.call);
  const [scan, setScan] = useState<Scan | null>(null);
  const [scanning, setScanning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const findFunds = async () => {
    setScanning(true);
    setError(null);
    try {
      const r = await call(OPS.scanRecoveryPhrase, {
        mnemonicPhrase: value.mnemonicPhrase,
        derivationPath: value.derivation === 'custom' ? value.customPath || undefined : undefined,
        gapLimit: gapLimitOf(value),
      });
      setScan(r);
      onChange({ ...value, derivation: 'custom', customPath: r.suggested });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setScanning(false);
    }
  };

  return (
    <Stack gap="xs">
      <Textarea
        label="Recovery phrase"
        description="12 to 24 words, separated by spaces."
        autosize
        minRows={2}
        error={errors.mnemonicPhrase}
        value={value.mnemonicPhrase}
        onChange={(e) => {
          setScan(null);
          onChange({ ...value, mnemonicPhrase: e.currentTarget.value });
        }}
      />
      <Select
        label="Derivation path"
        description="Where the other wallet put this phrase's coins. Not sure? Keep “Find it”, or press Find funds to see."
        data={DERIVATIONS}
        error={value.derivation === 'custom' ? undefined : errors.derivationPath}
        value={value.derivation}
        onChange={(v) => v && onChange({ ...value, derivation: v })}
        allowDeselect={false}
      />
      {value.derivation === 'custom' && (
        <TextInput
          label="Account path"
          error={errors.derivationPath}
          placeholder="m/44'/236'/0'"
          description="Addresses are <path>/0/i (receive) and <path>/1/i (change)."
          value={value.customPath}
          onChange={(e) => onChange({ ...value, customPath: e.currentTarget.value })}
        />
      )}
      <NumberInput
        label="Unused addresses to look past"
        description="20 finds what most wallets made. If coins are missing (a shop that handed out many addresses, such as Keystead's unpaid invoices), look further: up to 1,000."
        min={STANDARD_GAP}
        max={1000}
        allowDecimal={false}
        error={errors.gapLimit}
        value={value.gapLimit}
        onChange={(v) => {
          setScan(null);
          onChange({ ...value, gapLimit: typeof v === 'number' ? v : STANDARD_GAP });
        }}
      />
      <Group>
        <Button variant="light" onClick={() => void findFunds()} loading={scanning} disabled={!value.mnemonicPhrase.trim()}>
          Find funds
        </Button>
        {scanning && (
          <Text size="sm" c="dimmed" role="status">
            Looking at each path's addresses on the chain…
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {scan && (
        <Radio.Group
          value={value.derivation === 'custom' ? value.customPath : ''}
          onChange={(path) => onChange({ ...value, derivation: 'custom', customPath: path })}
          label="Where this phrase's coins are"
        >
          <ScrollTable aria-label="Where this phrase's coins are" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Use</Table.Th>
                <Table.Th>Path</Table.Th>
                <Table.Th>Addresses used</Table.Th>
                <Table.Th>Balance (BSV)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {scan.paths.map((p) => (
                <Table.Tr key={p.derivationPath} data-testid={`path-${p.derivationPath}`}>
                  <Table.Td>
                    <Radio value={p.derivationPath} aria-label={`Use ${p.derivationPath}`} />
                  </Table.Td>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {p.derivationPath}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {p.label}
                    </Text>
                  </Table.Td>
                  <Table.Td>{p.usedAddresses}</Table.Td>
                  <Table.Td>{formatBsv(p.satoshis)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        </Radio.Group>
      )}
    </Stack>
  );
}
