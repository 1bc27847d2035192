import { Table, type TableProps } from '@mantine/core';

/**
 * A data table that scrolls sideways inside itself when the window is narrow (or zoomed to 200 %), so the
 * page never does; `minWidth` is where it starts to scroll.
 */
export function ScrollTable({ minWidth = 520, ...props }: TableProps & { minWidth?: number }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...props} />
    </Table.ScrollContainer>
  );
}
