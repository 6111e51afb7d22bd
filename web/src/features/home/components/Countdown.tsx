import { DELAYS_MS, UI_TEXT, countdownAt, counted } from '@ctf/contract';
import { useEffect, useState } from 'react';
import { useHydrated } from '../../../lib/hydration';

/**
 * docs/product.md §4 countdown, ticking every second. The visible numbers are aria-hidden and a
 * screen-reader summary changes only with the minute, so it does not flood assistive technology.
 */
export function Countdown({ start, end }: { start: string; end: string }) {
  const hydrated = useHydrated();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), DELAYS_MS.countdownTick);
    return () => clearInterval(id);
  }, []);
  // The server's clock is not the reader's: a page the server rendered shows the numbers once
  // hydrated, in a box of the same size.
  if (!hydrated) return <CountdownPlaceholder />;
  const c = countdownAt(now, Date.parse(start), Date.parse(end));
  if (c.phase === 'ended') {
    return (
      <div className="countdown my-4" data-testid="countdown">
        <p className="display-6">{UI_TEXT.eventEnded}</p>
      </div>
    );
  }
  const label = c.phase === 'before' ? UI_TEXT.eventStartsIn : UI_TEXT.eventEndsIn;
  const parts: [number, string][] = [
    [c.days, 'Days'],
    [c.hours, 'Hours'],
    [c.minutes, 'Minutes'],
    [c.seconds, 'Seconds'],
  ];
  return (
    <div className="countdown my-4" data-testid="countdown">
      <h2 className="h4">{label}</h2>
      <div className="d-flex gap-3 justify-content-center flex-wrap" aria-hidden="true">
        {parts.map(([value, unit]) => (
          <div key={unit} className="text-center">
            <div className="display-6 fw-bold">{String(value).padStart(2, '0')}</div>
            <div className="small">{unit}</div>
          </div>
        ))}
      </div>
      <p className="visually-hidden">{`${label}: ${counted(c.days, 'day')}, ${counted(c.hours, 'hour')}, ${counted(c.minutes, 'minute')}`}</p>
    </div>
  );
}

/** The countdown's box before the browser's clock is known: the same lines, no numbers yet. */
function CountdownPlaceholder() {
  return (
    <div className="countdown my-4" data-testid="countdown" aria-hidden="true">
      <h2 className="h4">&nbsp;</h2>
      <div className="d-flex gap-3 justify-content-center flex-wrap">
        {['Days', 'Hours', 'Minutes', 'Seconds'].map((unit) => (
          <div key={unit} className="text-center">
            <div className="display-6 fw-bold">--</div>
            <div className="small">{unit}</div>
          </div>
        ))}
      </div>
    </div>
  );
}
