import { Alert, Code, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { OPERATIONS as OPS, type AppOutput } from '../../shared/operations.js';
import { ConfirmModal } from '../components/ConfirmModal.js';
import { CopyField } from '../components/CopyField.js';
import { notifySuccess } from '../components/notify.js';
import { useLiveReload } from '../components/useLive.js';
import { useLoad } from '../components/useLoad.js';
import { useWallets } from '../components/useWallets.js';
import { useSession } from '../state/store.js';
import { AllowAgain, AllowBeforeItCalls } from './apps/AllowApp.js';
import { ActivityPanel } from './apps/ActivityPanel.js';
import { CertificatesPanel } from './apps/CertificatesPanel.js';
import { AllowedApps, RefusedApps } from './apps/AppTables.js';
import { DefaultWallet } from './apps/DefaultWallet.js';
import { PendingApp } from './apps/PendingApp.js';
import { PermissionsPanel } from './apps/PermissionsPanel.js';

/** Where apps reach Keystead, or how to let them. */
function Listener({ listening }: { listening: string | null }) {
  if (!listening) {
    return (
      <Alert color="yellow" title="The BRC-100 listener is off" data-testid="apps-listener-off">
        No app can call Keystead's wallets now. Start Keystead with <Code>--brc100-listen 127.0.0.1:3321</Code>, the address @bsv/sdk's
        WalletClient calls, to let apps on this computer ask.
      </Alert>
    );
  }
  return (
    <Paper withBorder p="md" data-testid="apps-listener">
      <Text size="sm">Apps on this computer reach the wallets through @bsv/sdk's WalletClient at</Text>
      <CopyField label="Listener address" value={`http://${listening}`} />
    </Paper>
  );
}

/**
 * Applications that use the organisation's wallets through BRC-100: new ones wait here to be allowed (with
 * the wallet that answers them) or denied; allowed ones can be revoked at once.
 */
export function AppsView() {
  const call = useSession((s) => s.call);
  const wallets = useWallets();
  const list = useLoad(() => call(OPS.listApps, {}), []);
  useLiveReload(['apps'], () => void list.reload());
  const [revoking, setRevoking] = useState<AppOutput | null>(null);
  const [allowingAgain, setAllowingAgain] = useState<AppOutput | null>(null);

  const data = list.data;
  const apps = data?.apps ?? [];
  const pending = apps.filter((a) => a.state === 'pending');
  const allowed = apps.filter((a) => a.state === 'allowed');
  const refused = apps.filter((a) => a.state === 'denied' || a.state === 'revoked');
  const words = { wallets: wallets.data, defaultWalletId: data?.defaultWalletId ?? null };

  return (
    <Stack maw={1000}>
      <Title order={2}>Apps</Title>
      <Text c="dimmed" maw={760}>
        Applications that use the organisation's wallets through BRC-100 (@bsv/sdk's WalletClient). A new app's first call waits until an
        admin or manager allows it here, naming the wallet that answers it; a denied or revoked app is refused.
      </Text>
      {list.error && (
        <Alert color="red" role="alert">
          {list.error}
        </Alert>
      )}
      {!data && list.loading && <Loader size="sm" aria-label="Loading apps" />}

      {pending.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="apps-pending">
          <Title order={3} id="apps-pending">
            Waiting for your decision ({pending.length})
          </Title>
          {pending.map((a) => (
            <PendingApp key={a.originator} app={a} {...words} onDecided={list.reload} />
          ))}
        </Stack>
      )}

      {data && <Listener listening={data.listening} />}

      {data && (
        <Stack gap="xs" component="section" aria-labelledby="apps-allowed">
          <Title order={3} id="apps-allowed">
            Allowed apps
          </Title>
          {allowed.length ? (
            <AllowedApps apps={allowed} {...words} onRevoke={setRevoking} />
          ) : (
            <Text c="dimmed">{apps.length ? 'No app is allowed now.' : 'No app has called yet.'}</Text>
          )}
        </Stack>
      )}

      {refused.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="apps-refused">
          <Title order={3} id="apps-refused">
            Denied and revoked
          </Title>
          <RefusedApps apps={refused} onAllow={setAllowingAgain} />
        </Stack>
      )}

      {data && <PermissionsPanel />}

      {data && <ActivityPanel />}

      {data && <CertificatesPanel />}

      <AllowBeforeItCalls {...words} onAllowed={list.reload} />
      {data && <DefaultWallet key={data.defaultWalletId ?? ''} {...words} onSaved={list.reload} />}

      {allowingAgain && <AllowAgain app={allowingAgain} {...words} onClose={() => setAllowingAgain(null)} onAllowed={list.reload} />}
      <ConfirmModal
        opened={revoking !== null}
        title={`Revoke ${revoking?.originator ?? 'this app'}?`}
        confirmLabel="Revoke app"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await call(OPS.revokeApp, { originator: revoking.originator });
          notifySuccess(`${revoking.originator} is revoked.`);
          await list.reload();
        }}
      >
        Its next call is refused; it can use the wallet again only once it is allowed again. What it has done stays in the audit log.
      </ConfirmModal>
    </Stack>
  );
}
