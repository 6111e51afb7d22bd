/** The entry point proxy (proxy.mjs): what its tests import. */
export function isPublic(address: string): boolean;
