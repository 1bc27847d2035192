/** Values as an SQL list of string literals, for `IN (…)`: ['a', "o'k"] → `'a','o''k'` (quotes doubled, as SQL escapes them). */
export function sqlStringList(values: readonly string[]): string {
  return values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',');
}
