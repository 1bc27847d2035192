import { Alert, Button, Group, Paper, Select, Stack, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { STAS_PROTOCOL_IDS, TOKEN_PROTOCOL_IDS, TOKEN_PROTOCOLS, type StasProtocol } from '../../../shared/token-protocols.js';
import { HIDE_MEDIUM, HIDE_NARROW, ScrollTable, WhenNarrow } from '../../components/ScrollTable.js';
import { notifySuccess } from '../../components/notify.js';
import { useLoad } from '../../components/useLoad.js';
import { useSubmit } from '../../components/useSubmit.js';
import { useSession } from '../../state/store.js';

/** The protocols whose templates ship with Keystead: they need nothing installed. */
const OPEN_PROTOCOLS = TOKEN_PROTOCOL_IDS.filter((p) => !TOKEN_PROTOCOLS[p].licensed);

/** The licensed STAS templates the organisation installed (admins). */
export function Templates() {
  const call = useSession((s) => s.call);
  const list = useLoad(() => call(OPS.listTokenTemplates, {}));
  const [protocolId, setProtocolId] = useState<string>('STAS-20' satisfies StasProtocol);
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
        STAS templates are licensed, so Keystead does not ship them. Paste the locking-script hex your licence gives you, with its
        [destinationPublicKeyHash] and [redemptionPublicKeyHash] placeholders; it stays in the encrypted database. The headless host also
        reads them from --token-templates &lt;dir&gt;. Its structure is checked against the STAS family, and each installed template shows
        its SHA-256 (of the text as installed): compare it with the one your licensor gives.
      </Text>
      {list.error && <Alert color="red">{list.error}</Alert>}
      <ScrollTable fit aria-label="Installed templates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Protocol</Table.Th>
            <Table.Th className={HIDE_NARROW}>Size</Table.Th>
            <Table.Th>SHA-256</Table.Th>
            <Table.Th className={HIDE_MEDIUM}>Installed</Table.Th>
            <Table.Th className={HIDE_MEDIUM}>From</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(list.data?.templates ?? []).map((t) => (
            <Table.Tr key={t.protocolId}>
              <Table.Td>
                {t.protocolId}
                {/* The columns a narrow table leaves out, said here. */}
                <WhenNarrow below="medium">
                  <Text size="xs" c="dimmed">
                    <WhenNarrow>{t.bytes} bytes · </WhenNarrow>
                    {t.source === 'flag' ? 'from --token-templates' : 'installed here'} {new Date(t.installedAt).toLocaleString()}
                  </Text>
                </WhenNarrow>
              </Table.Td>
              <Table.Td className={HIDE_NARROW}>{t.bytes} bytes</Table.Td>
              <Table.Td>
                {/* The whole hash, selectable, to compare with the one the licensor publishes. */}
                <Text
                  size="xs"
                  ff="monospace"
                  style={{ wordBreak: 'break-all', userSelect: 'all' }}
                  aria-label={`SHA-256 of the ${t.protocolId} template`}
                >
                  {t.sha256}
                </Text>
                {t.problem && (
                  <Text size="xs" c="red">
                    Not used: {t.problem}
                  </Text>
                )}
              </Table.Td>
              <Table.Td className={HIDE_MEDIUM}>{new Date(t.installedAt).toLocaleString()}</Table.Td>
              <Table.Td className={HIDE_MEDIUM}>{t.source === 'flag' ? '--token-templates' : 'installed here'}</Table.Td>
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
                <Text c="dimmed">None installed: {OPEN_PROTOCOLS.join(' and ')} work without any.</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </ScrollTable>
      <Paper withBorder p="md">
        <form onSubmit={install.onSubmit}>
          <Stack gap="sm">
            <Select
              label="Protocol"
              data={[...STAS_PROTOCOL_IDS]}
              value={protocolId}
              onChange={(v) => v && setProtocolId(v)}
              allowDeselect={false}
            />
            <Textarea
              label="Template (hex with placeholders)"
              value={template}
              onChange={(e) => setTemplate(e.currentTarget.value)}
              autosize
              minRows={3}
              maxRows={8}
              ff="monospace"
              required
            />
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
