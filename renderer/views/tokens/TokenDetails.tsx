import { Alert, Badge, Card, Code, Group, Image, Modal, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { OPERATIONS as OPS, type TokenDetailsOutput } from '../../../shared/operations.js';
import { CopyField } from '../../components/CopyField.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { DetailRow } from './DetailRow.js';
import { formatTokenAmount } from './token-amount.js';

/** A token's schema, supply and transactions; for an NFT, each serial's data and where it is now (followed on chain), or redeemed. */
export function TokenDetails({ tokenId, onClose }: { tokenId: string; onClose: () => void }) {
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
              <DetailRow label="Token id">
                <CopyField label="Token id" value={t.tokenId} />
              </DetailRow>
              <DetailRow label="Protocol">{t.protocolId}</DetailRow>
              <DetailRow label="Supply">
                {formatTokenAmount(t.supply, t.decimals)} issued · {formatTokenAmount(t.circulatingSupply, t.decimals)} circulating
              </DetailRow>
              <DetailRow label="Satoshis per token">{t.satsPerToken}</DetailRow>
              <DetailRow label="Splittable">{t.splittable ? 'yes' : 'no (one token per output)'}</DetailRow>
              <DetailRow label="Redemption address">
                <CopyField label="Redemption address" value={t.redeemAddr} />
              </DetailRow>
              <DetailRow label="Contract transaction">
                <Code>{t.contractTxid ?? '—'}</Code>
              </DetailRow>
              <DetailRow label="Issue transaction">
                <Code>{t.issueTxid ?? '—'}</Code>
              </DetailRow>
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
                    {s.data.length ? (
                      s.data.map((line, i) => (
                        <Text key={i} size="sm">
                          {line}
                        </Text>
                      ))
                    ) : (
                      <Text size="sm" c="dimmed">
                        no data
                      </Text>
                    )}
                    {s.txid && (
                      <Text size="xs" c="dimmed" ff="monospace" title={`${s.txid}:${s.vout}`}>
                        now at {s.txid.slice(0, 12)}…:{s.vout}
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
