import type { InstanceDefinition } from '@ctf/contract';

/**
 * A challenge's container (issue 30) in challenge.yml. ctfcli's own keys where they fit:
 * - `image`: the image the challenge host runs (a name such as `web-chal:1`; ctfcli's `image: .`,
 *   a folder to build, is refused: build it on the challenge host and name it here);
 * - `connection_info`: ctfcli's text for players (`nc host 1337`, `http://host:8080`); with `image`
 *   and no `instance.ports`, its port and scheme are the container's published port.
 * Our own key `instance:` holds the rest with the API's names: ports, memoryMb, cpus, pids,
 * lifetimeMinutes, env, capabilities, writableRoot. The admin form's schema checks it all after.
 */
export function readInstanceYml(
  data: Record<string, unknown>,
  err: (path: (string | number)[], message: string) => void,
): Record<string, unknown> | null {
  const image = data.image;
  const extra = data.instance;
  if (image === undefined || image === null) {
    if (extra !== undefined && extra !== null)
      err(['instance'], "'instance' needs 'image': the image to run.");
    return null;
  }
  if (typeof image !== 'string') {
    err(['image'], "'image' must be the name of an image, such as web-chal:1.");
    return null;
  }
  if (/^[./~]/.test(image.trim())) {
    err(
      ['image'],
      `'image: ${image}' names a folder to build; build the image on the challenge host and name it here (name:tag).`,
    );
    return null;
  }
  if (extra !== undefined && extra !== null && (typeof extra !== 'object' || Array.isArray(extra))) {
    err(
      ['instance'],
      "'instance' must be a mapping (ports, memoryMb, cpus, pids, lifetimeMinutes, env, ...).",
    );
    return null;
  }
  const own = (extra ?? {}) as Record<string, unknown>;
  const ports = own.ports ?? portsOfConnectionInfo(data.connection_info);
  if (ports === undefined) {
    err(
      ['image'],
      "An instance needs 'instance.ports' (or a 'connection_info' with a port, such as nc host 1337).",
    );
    return null;
  }
  return { ...own, image, ports };
}

/** `nc host 1337` -> 1337/tcp; `http(s)://host:8080/...` -> 8080/http; anything else: none. */
function portsOfConnectionInfo(info: unknown): { port: number; protocol: 'tcp' | 'http' }[] | undefined {
  if (typeof info !== 'string') return undefined;
  const url = /^\s*https?:\/\/[^/:\s]+:([0-9]{1,5})/i.exec(info);
  if (url) return [{ port: Number(url[1]), protocol: 'http' }];
  const nc = /^\s*(?:nc|ncat|netcat)\s+(?:-\S+\s+)*\S+\s+([0-9]{1,5})\s*$/i.exec(info);
  return nc ? [{ port: Number(nc[1]), protocol: 'tcp' }] : undefined;
}

/** What export writes: `image`, and the rest under `instance:` (always whole, so it reads back the same). */
export function instanceYml(d: InstanceDefinition | null): Record<string, unknown> {
  if (!d) return {};
  const { image, ...rest } = d;
  return { image, instance: rest };
}
