/** The spellings a leaked secret would take in a report: as is, as hex (either case), as base64 and base64url, URL-encoded. Tests grep every written file for each. */
export function secretSpellings(secret: string): string[] {
  const b = Buffer.from(secret, 'utf8');
  return [
    secret,
    b.toString('hex'),
    b.toString('hex').toUpperCase(),
    b.toString('base64'),
    b.toString('base64url'),
    encodeURIComponent(secret),
  ];
}
