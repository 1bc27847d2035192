import { Button } from '@mantine/core';
import './skip-link.css';

/**
 * The first stop of the keyboard on every signed-in page: it jumps past the header and the menu's links to the
 * view (the element with `id`), so the next Tab lands on the view's first control.
 */
export function SkipLink({ to }: { to: string }) {
  return (
    <Button className="ks-skip" size="xs" onClick={() => document.getElementById(to)?.focus()}>
      Skip to the view
    </Button>
  );
}
