import { Alert, Loader, Modal, Table, Text } from '@mantine/core';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { formatUnits } from './bsv21-amount.js';
import { sourceWords } from './bsv21-words.js';
import { DetailRow } from './DetailRow.js';

/** A BSV-21 token's deploy facts and what the organisation holds of it. */
export function Bsv21Details({ id, onClose }: { id: string; onClose: () => void }) {
  const call = useSession((s) => s.call);
  const token = useLoad(() => call(OPS.bsv21Token, { id }), [id]);
  const t = token.data;
  return (
    <Modal opened onClose={onClose} title={t?.sym ? `BSV-21 token ${t.sym}` : 'BSV-21 token'} size="lg">
      {token.error && (
        <Alert color="red" role="alert">
          {token.error}
        </Alert>
      )}
      {!t && !token.error && <Loader size="sm" />}
      {t && (
        <Table aria-label="BSV-21 token details" data-testid="bsv21-details">
          <Table.Tbody>
            <DetailRow label="Token id">
              <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {t.id}
              </Text>
            </DetailRow>
            <DetailRow label="Symbol">{t.sym ?? '—'}</DetailRow>
            <DetailRow label="Decimals">{t.dec}</DetailRow>
            <DetailRow label="Supply">{formatUnits(t.supply, t.dec)}</DetailRow>
            <DetailRow label="Held by the organisation">{formatUnits(t.held, t.dec)}</DetailRow>
            <DetailRow label="Icon">{t.icon ?? '—'}</DetailRow>
            <DetailRow label="Deploy transaction">
              <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {t.deployTxid}
              </Text>
            </DetailRow>
            <DetailRow label="Validity">{sourceWords(t.source)}</DetailRow>
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
