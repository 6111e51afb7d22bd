import { describe, expect, it } from 'vitest';
import type { Executor } from '../db/schema.js';
import { DomainEvents } from './domain-events.js';

const trx = {} as Executor;

describe('DomainEvents (the publish port)', () => {
  it('runs the handlers of a phase in ascending priority, equal priorities in registration order', async () => {
    const events = new DomainEvents(() => {});
    const ran: string[] = [];
    events.on('settings.saved', () => void ran.push('stream'), { priority: 0 });
    events.on('settings.saved', () => void ran.push('caches'), { priority: -20 });
    events.on('settings.saved', () => void ran.push('outbox'), { priority: -10 });
    events.on('settings.saved', () => void ran.push('stream 2'));
    await events.emit('settings.saved', {});
    expect(ran).toEqual(['caches', 'outbox', 'stream', 'stream 2']);
  });

  it('gives transaction handlers the transaction, and runs each phase only where it is emitted', async () => {
    const events = new DomainEvents(() => {});
    const ran: string[] = [];
    events.on('first-blood', (b, t) => void ran.push(`in ${b.challenge} ${t === trx}`), {
      phase: 'transaction',
    });
    events.on('first-blood', (b) => void ran.push(`after ${b.challenge}`));
    await events.emitInTransaction(trx, 'first-blood', { challenge: 'A', competitor: 'x' });
    expect(ran).toEqual(['in A true']);
    await events.emit('first-blood', { challenge: 'B', competitor: 'x' });
    expect(ran).toEqual(['in A true', 'after B']);
  });

  it('rolls a cause back when a transaction handler fails (the error reaches the emitter)', async () => {
    const events = new DomainEvents(() => {});
    events.on(
      'site.switched',
      () => {
        throw new Error('outbox down');
      },
      { phase: 'transaction' },
    );
    await expect(
      events.emitInTransaction(trx, 'site.switched', { activated: true, changed: true }),
    ).rejects.toThrow('outbox down');
  });

  it('logs a committed handler that fails, and still runs the next one', async () => {
    const errors: string[] = [];
    const events = new DomainEvents((err, name) => errors.push(`${name}: ${(err as Error).message}`));
    const ran: string[] = [];
    events.on('announcement.deleted', async () => {
      throw new Error('stream down');
    });
    events.on('announcement.deleted', () => void ran.push('next'));
    await events.emit('announcement.deleted', { id: 1, title: 'T' });
    expect(errors).toEqual(['announcement.deleted: stream down']);
    expect(ran).toEqual(['next']);
  });

  it('starts the first handler before emit returns (a caller that does not wait still orders it)', () => {
    const events = new DomainEvents(() => {});
    const ran: string[] = [];
    events.on('flag.correct', () => void ran.push('signalled'));
    void events.emit('flag.correct', { userId: 1, challengeId: 2 });
    expect(ran).toEqual(['signalled']);
  });

  it('forgets a handler once unregistered', async () => {
    const events = new DomainEvents(() => {});
    const ran: number[] = [];
    const off = events.on('hint.unlocked', ({ hintId }) => void ran.push(hintId));
    await events.emit('hint.unlocked', { hintId: 1, userId: 1 });
    off();
    await events.emit('hint.unlocked', { hintId: 2, userId: 1 });
    expect(ran).toEqual([1]);
  });
});
