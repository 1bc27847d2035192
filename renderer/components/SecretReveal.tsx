import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** Shows a secret exactly once (an API key), with a copy button and the warning that it will not be shown again. */
export function SecretReveal({ label, secret, extra }: { label: string; secret: string; extra?: { label: string; value: string }[] }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Copy it now">
        Keystead keeps only a hash of this {label}; it cannot show it again.
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
        <CopyButton value={secret}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : `Copy ${label}`}</Button>}</CopyButton>
      </Group>
    </Stack>
  );
}
