import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ROLE_LABELS } from '../../shared/roles.js';
import { SkipLink } from '../components/SkipLink.js';
import { useSession } from '../state/store.js';
import { viewsFor } from './registry.js';

/** The view id from `#/<id>?<params>`. */
function currentHash(): string {
  return window.location.hash.replace(/^#\/?/, '').split('?')[0];
}

/**
 * Focuses the view's main heading (its first h1/h2, made focusable with tabIndex -1), now or as soon as the view
 * shows it; a view that swaps its heading when it has loaded gets the new one focused too. It stops watching
 * once the user types or clicks, or after a few seconds. Returns the clean-up.
 */
function focusHeading(view: HTMLElement | null): () => void {
  if (!view) return () => undefined;
  let focused: HTMLElement | null = null;
  const tryFocus = () => {
    const heading = view.querySelector<HTMLElement>('h1, h2');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading.focus();
    focused = heading;
  };
  tryFocus();
  const observer = new MutationObserver(() => {
    const nowhere = !document.activeElement || document.activeElement === document.body;
    if (!focused || (!focused.isConnected && nowhere)) tryFocus();
  });
  observer.observe(view, { childList: true, subtree: true });
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
  };
  const timer = setTimeout(stop, 3000);
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  return stop;
}

/** The signed-in frame: header, navigation filtered by role, and the selected view (kept in the URL hash). */
export function Shell() {
  const me = useSession((s) => s.me)!;
  const network = useSession((s) => s.network);
  const logout = useSession((s) => s.logout);
  const views = viewsFor(me.role);
  const [hash, setHash] = useState(currentHash);

  useEffect(() => {
    const onHash = () => setHash(currentHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const active = views.find((v) => v.id === hash) ?? views[0];
  const [menuShown, setMenuShown] = useState(true);

  // A view chosen in the menu takes the keyboard to its heading (as accessible single-page apps do), so a screen
  // reader says where the user is and Tab goes on from the top of the view. Never on first load: nothing is chosen.
  const chosen = useRef(false);
  useEffect(() => {
    if (!chosen.current) return;
    chosen.current = false;
    return focusHeading(document.getElementById('view'));
  }, [active?.id]);

  return (
    <AppShell
      header={{ height: 56 }}
      // The menu can be put away (a small window, 200 % zoom) to give its width to the view.
      navbar={{ width: 220, breakpoint: 'xs', collapsed: { desktop: !menuShown, mobile: !menuShown } }}
      padding="lg"
    >
      <AppShell.Header>
        <SkipLink to="view" />
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger
              opened={menuShown}
              onClick={() => setMenuShown((v) => !v)}
              size="sm"
              aria-label={menuShown ? 'Hide the menu' : 'Show the menu'}
              aria-expanded={menuShown}
            />
            <Text fw={800}>Keystead</Text>
            <Text c="dimmed">·</Text>
            <Text fw={500} data-testid="org-name">
              {me.organisation}
            </Text>
            <Badge variant="light" color={network === 'mainnet' ? 'red' : 'teal'}>
              {network}
            </Badge>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Stack gap={0} align="flex-end" style={{ minWidth: 0 }}>
              {/* A long e-mail is cut in a narrow window (whole on hover), never pushed out of the header. */}
              <Text size="sm" data-testid="signed-in-as" truncate="end" maw="min(360px, 40vw)" title={me.email}>
                {me.email}
              </Text>
              <Text size="xs" c="dimmed">
                {ROLE_LABELS[me.role]}
              </Text>
            </Stack>
            <Button variant="default" size="xs" onClick={() => void logout()}>
              Log out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        {/* Scrolls on its own when the window is short (or zoomed in), so every view stays reachable. */}
        <AppShell.Section grow component={ScrollArea}>
          {views.map((v) => (
            <NavLink
              key={v.id}
              href={`#/${v.id}`}
              label={v.label}
              active={v.id === active?.id}
              rightSection={v.Badge ? <v.Badge /> : undefined}
              onClick={() => {
                // The view shown already: its heading at once (no change of view will do it).
                if (v.id === active?.id) focusHeading(document.getElementById('view'));
                else chosen.current = true;
              }}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="view" tabIndex={-1} className="ks-view">
        {active ? <active.Component /> : <Text>No views are available to your role.</Text>}
      </AppShell.Main>
    </AppShell>
  );
}
