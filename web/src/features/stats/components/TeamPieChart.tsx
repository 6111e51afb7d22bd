import { PIE_CHART } from '@ctf/contract';
import { Cell, Legend, Pie, PieChart, Tooltip } from 'recharts';
import type { MemberPoints } from '../points';

/**
 * The Team Stats pie (SPEC.md §9: 400 by 400, outer radius 100, six fixed colours). This file is
 * the only importer of recharts and is loaded lazily, so the chart library loads only when shown.
 */
export default function TeamPieChart({ data }: { data: MemberPoints[] }) {
  return (
    <PieChart width={PIE_CHART.width} height={PIE_CHART.height}>
      <Pie
        data={data}
        dataKey="points"
        nameKey="name"
        cx="50%"
        cy="50%"
        outerRadius={PIE_CHART.outerRadius}
        label
        isAnimationActive={false}
      >
        {data.map((d, i) => (
          <Cell key={d.name} fill={PIE_CHART.colors[i % PIE_CHART.colors.length]} />
        ))}
      </Pie>
      <Tooltip />
      <Legend />
    </PieChart>
  );
}
