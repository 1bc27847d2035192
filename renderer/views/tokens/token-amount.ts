/** A token count in the token's own units: 12345 with 2 decimals → "123.45". */
export function formatTokenAmount(tokens: number, decimals: number): string {
  if (!decimals) return tokens.toLocaleString('en-US');
  return (tokens / 10 ** decimals).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}
