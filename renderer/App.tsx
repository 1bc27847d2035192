import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useSession } from './state/store.js';
import { FirstRunView } from './views/FirstRunView.js';
import { LoginView } from './views/LoginView.js';
import { Shell } from './views/Shell.js';

/** Picks the screen for the session's phase: first run, unlock/login, or the app shell. */
export function App() {
  const phase = useSession((s) => s.phase);
  const start = useSession((s) => s.start);
  const startError = useSession((s) => s.startError);

  useEffect(() => {
    void start();
  }, [start]);

  switch (phase) {
    case 'starting':
      return (
        <Center h="100vh">
          <Loader aria-label="Starting" />
        </Center>
      );
    case 'firstRun':
      return <FirstRunView />;
    case 'locked':
    case 'login':
      return <LoginView locked={phase === 'locked'} />;
    case 'ready':
      return <Shell />;
    case 'unreachable':
      return (
        <Center h="100vh">
          <Stack align="center">
            <Title order={3}>Keystead is not reachable</Title>
            <Text c="dimmed">{startError}</Text>
            <Button onClick={() => void start()}>Try again</Button>
          </Stack>
        </Center>
      );
  }
}
