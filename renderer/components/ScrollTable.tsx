import { Table, type TableProps } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { createContext, useContext, type ReactNode } from 'react';
import './fit-table.css';

/** A fitting table's widths (px of table) below which its less important columns give way; fit-table.css says the same. */
const MEDIUM = 760;
const NARROW = 600;

/** Class names for a fitting table's cells (the header's and the rows'): hidden below MEDIUM px of table. */
export const HIDE_MEDIUM = 'ks-hide-medium';
/** Hidden below NARROW px of table (800×600 with the menu shown). */
export const HIDE_NARROW = 'ks-hide-narrow';

/** The width of the fitting table around (null: not measured yet, or not in one). */
const FitWidth = createContext<number | null>(null);

/**
 * What a column the table left out would have said, in another cell: rendered only while that column is
 * hidden (never twice on the page, so a search for its text finds one).
 */
export function WhenNarrow({ below = 'narrow', children }: { below?: 'narrow' | 'medium'; children: ReactNode }) {
  const width = useContext(FitWidth);
  return width !== null && width > 0 && width < (below === 'narrow' ? NARROW : MEDIUM) ? children : null;
}

/**
 * A data table that scrolls sideways inside itself when the window is narrow (or zoomed to 200 %), so the
 * page never does; `minWidth` is where it starts to scroll. With `fit` it fits a small window instead: its
 * less important columns (cells marked HIDE_MEDIUM, HIDE_NARROW) give way as its container narrows, and
 * long text wraps or is cut (with its whole text on hover).
 */
export function ScrollTable({ minWidth = 520, fit = false, ...props }: TableProps & { minWidth?: number; fit?: boolean }) {
  if (fit) return <FitTable {...props} />;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...props} />
    </Table.ScrollContainer>
  );
}

function FitTable(props: TableProps) {
  const { ref, width } = useElementSize();
  return (
    <div className="ks-fit" ref={ref}>
      <FitWidth.Provider value={width}>
        {/* Only what cannot wrap at all (a very long word) would still scroll, inside the table. */}
        <Table.ScrollContainer minWidth={0}>
          <Table {...props} />
        </Table.ScrollContainer>
      </FitWidth.Provider>
    </div>
  );
}
