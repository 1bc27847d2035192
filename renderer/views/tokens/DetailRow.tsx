import { Table } from '@mantine/core';

/** One labelled row of a vertical details table. */
export function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={190}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}
