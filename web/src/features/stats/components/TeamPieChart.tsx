import { PIE_CHART } from '@ctf/contract';
import type { MemberPoints } from '../points';

const CX = PIE_CHART.width / 2;
const CY = PIE_CHART.height / 2;
const R = PIE_CHART.outerRadius;
/** Where a slice's value is written, and the short line that ties it to the slice. */
const LABEL_R = R + 24;
const LINE_R = R + 12;

const colorOf = (i: number) => PIE_CHART.colors[i % PIE_CHART.colors.length]!;

/** The point at `angle` (radians, clockwise from twelve o'clock) on a circle of radius r. */
function at(angle: number, r: number): [number, number] {
  return [CX + r * Math.sin(angle), CY - r * Math.cos(angle)];
}

/** A slice from angle a to b as a path (a whole circle as two half arcs: one arc cannot close on itself). */
function slicePath(a: number, b: number): string {
  const f = (n: number) => n.toFixed(2);
  if (b - a >= 2 * Math.PI - 1e-9) {
    const [x0, y0] = at(0, R);
    const [x1, y1] = at(Math.PI, R);
    return `M${f(x0)},${f(y0)}A${R},${R} 0 1 1 ${f(x1)},${f(y1)}A${R},${R} 0 1 1 ${f(x0)},${f(y0)}Z`;
  }
  const [x0, y0] = at(a, R);
  const [x1, y1] = at(b, R);
  const large = b - a > Math.PI ? 1 : 0;
  return `M${CX},${CY}L${f(x0)},${f(y0)}A${R},${R} 0 ${large} 1 ${f(x1)},${f(y1)}Z`;
}

/**
 * The Team Stats pie (docs/product.md: 400 by 400, outer radius 100, six fixed colours): one
 * slice a member, clockwise from twelve o'clock, its points written beside it, its name and
 * points in a tooltip (the slice's title), and a legend of colours below. Drawn as plain SVG by
 * React: a few paths need no chart library (issue 28 took Recharts out of the build).
 */
export function TeamPieChart({ data }: { data: MemberPoints[] }) {
  const total = data.reduce((s, d) => s + Math.max(0, d.points), 0);
  let start = 0;
  const slices = data.map((d, i) => {
    const sweep = total > 0 ? (Math.max(0, d.points) / total) * 2 * Math.PI : 0;
    const slice = { ...d, color: colorOf(i), a: start, b: start + sweep };
    start += sweep;
    return slice;
  });
  return (
    <div>
      <svg
        className="team-pie-chart"
        width={PIE_CHART.width}
        height={PIE_CHART.height}
        viewBox={`0 0 ${PIE_CHART.width} ${PIE_CHART.height}`}
        role="img"
        aria-label="Points per member"
      >
        {slices
          .filter((s) => s.b > s.a)
          .map((s) => {
            const mid = (s.a + s.b) / 2;
            const [lx, ly] = at(mid, LABEL_R);
            const [ex, ey] = at(mid, R);
            const [tx, ty] = at(mid, LINE_R);
            return (
              <g key={s.name} className="team-pie-slice">
                <path d={slicePath(s.a, s.b)} fill={s.color} stroke="var(--bs-body-bg)" strokeWidth={1}>
                  <title>{`${s.name}: ${s.points}`}</title>
                </path>
                <line x1={ex} y1={ey} x2={tx} y2={ty} stroke={s.color} />
                <text
                  x={lx}
                  y={ly}
                  fill="currentColor"
                  dominantBaseline="central"
                  textAnchor={Math.abs(lx - CX) < 1 ? 'middle' : lx > CX ? 'start' : 'end'}
                >
                  {s.points}
                </text>
              </g>
            );
          })}
      </svg>
      <ul className="list-inline small mb-0" aria-hidden="true">
        {slices.map((s) => (
          <li key={s.name} className="list-inline-item">
            <span className="chart-swatch" style={{ backgroundColor: s.color }} />
            {s.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
