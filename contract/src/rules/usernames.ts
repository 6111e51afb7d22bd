/**
 * Usernames and team names are unique case-insensitively after trimming and NFKC normalisation
 * (docs/product.md §11), so look-alikes such as full-width letters collide with their plain form.
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

/** The display form kept for a name: NFKC-normalised and trimmed. */
export function cleanName(name: string): string {
  return name.normalize('NFKC').trim();
}
