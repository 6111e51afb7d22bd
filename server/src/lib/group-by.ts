/**
 * Rows gathered into lists by a key: each key (in the order first met) with the values of its
 * rows in the rows' order (a query's ORDER BY carries through).
 */
export function groupBy<T, K, V>(rows: Iterable<T>, key: (row: T) => K, value: (row: T) => V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(value(row));
    else groups.set(k, [value(row)]);
  }
  return groups;
}
