import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/**
 * Shows a secret with a copy button and what is true about seeing it again: by default the warning for
 * secrets kept only as a hash (an API key); `notice` says otherwise where it differs (a recovery phrase).
 */
export function SecretReveal({
  label,
  secret,
  extra,
  notice,
}: {
  label: string;
  secret: string;
  extra?: { label: string; value: string }[];
  notice?: { title: string; text: string };
}) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title={notice?.title ?? 'Copy it now'}>
        {notice?.text ?? `Keystead keeps only a hash of this ${label}; it cannot show it again.`}
      </Alert>
      {extra?.map((e) => (
        <Text size="sm" key={e.label}>
          {e.label}: <Code>{e.value}</Code>
        </Text>
      ))}
      <Code block data-testid="revealed-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : `Copy ${label}`}</Button>}
        </CopyButton>
      </Group>
    </Stack>
  );
}
