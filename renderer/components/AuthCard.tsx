import { Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the first-run, unlock and login screens. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" w={460} maw="100%">
        <Stack gap="lg">
          <Group gap="sm">
            <ThemeIcon size="lg" radius="md" aria-hidden>
              <Text fw={800}>K</Text>
            </ThemeIcon>
            <Text fw={700} size="lg">
              Keystead
            </Text>
          </Group>
          <div>
            <Title order={2}>{title}</Title>
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
