import { vi } from 'vitest';

/**
 * A stand-in for the browser's EventSource that a test drives: installLiveStream() puts it in
 * place of the global for one test, opened lists every stream the code under test opened, and
 * emit() delivers a named event with its JSON data as the server would.
 */
export class FakeEventSource {
  static CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 1;
  closed = false;
  private listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? [])
      fn(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

/** Replaces the global EventSource with FakeEventSource, with no stream opened yet. */
export function installFakeEventSource(): void {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
