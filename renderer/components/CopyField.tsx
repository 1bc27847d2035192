import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { CheckIcon, CopyIcon } from './icons.js';

/** A copy button for a value shown elsewhere (a block of ASM, a hex template). */
export function CopyAction({ label, value }: { label: string; value: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
          <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? <CheckIcon /> : <CopyIcon />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A value in monospace with a copy button beside it. */
export function CopyField({ label, value, size = 'sm' }: { label: string; value: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text
        size={size}
        ff="monospace"
        style={{ wordBreak: 'break-all' }}
        data-testid={`copy-field-${label.toLowerCase().replace(/\s+/g, '-')}`}
      >
        {value}
      </Text>
      <CopyAction label={label} value={value} />
    </Group>
  );
}
