import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Badge, MantineProvider, Modal, Notification, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // A badge's word is always shown whole: Mantine's default cuts it with an ellipsis in narrow columns.
    Badge: Badge.extend({
      defaultProps: { variant: 'light' },
      styles: { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } },
    }),
    // The × of a dialog and of a notification is a button a screen reader must name (Mantine leaves it nameless).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      {/* Bottom right: a notification never covers the header (who is signed in, Log out). */}
      <Notifications position="bottom-right" limit={3} />
      <App />
    </MantineProvider>
  </StrictMode>,
);
