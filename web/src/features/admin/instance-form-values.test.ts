import { describe, expect, it } from 'vitest';
import { NO_INSTANCE, instanceBody, instanceValues } from './instance-form-values';

describe('the challenge form’s instance fields', () => {
  it('send null while off, and the definition typed when on', () => {
    expect(instanceBody(NO_INSTANCE)).toEqual({ instance: null });
    const typed = {
      ...NO_INSTANCE,
      enabled: true,
      image: ' web-chal:1 ',
      ports: '1337/tcp, 8080/http',
      env: 'MODE=hard\n\nGREETING=a=b',
      capabilities: 'net_bind_service',
      writableRoot: true,
    };
    expect(instanceBody(typed)).toEqual({
      instance: {
        image: 'web-chal:1',
        ports: [
          { port: 1337, protocol: 'tcp' },
          { port: 8080, protocol: 'http' },
        ],
        memoryMb: 256,
        cpus: 0.5,
        pids: 128,
        lifetimeMinutes: 30,
        env: { MODE: 'hard', GREETING: 'a=b' },
        capabilities: ['NET_BIND_SERVICE'],
        writableRoot: true,
      },
    });
    // What is stored comes back as the same fields.
    const body = instanceBody(typed) as { instance: Parameters<typeof instanceValues>[0] };
    expect(instanceValues(body.instance)).toMatchObject({ enabled: true, ports: '1337/tcp, 8080/http' });
  });

  it('name what is wrong before sending', () => {
    const on = { ...NO_INSTANCE, enabled: true, image: 'x:1' };
    expect(instanceBody({ ...on, image: ' ' })).toHaveProperty('problem');
    expect(instanceBody({ ...on, ports: '1337/udp' })).toEqual({
      problem: "Instance ports are written PORT/tcp or PORT/http: '1337/udp' is not.",
    });
    expect(instanceBody({ ...on, ports: '' })).toHaveProperty('problem');
    expect(instanceBody({ ...on, memoryMb: 'lots' })).toHaveProperty('problem');
    expect(instanceBody({ ...on, env: 'NOEQUALS' })).toHaveProperty('problem');
  });
});
