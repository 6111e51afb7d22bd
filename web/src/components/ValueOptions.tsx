/** One option per value, its text the value itself (categories, difficulties, authors, divisions). */
export function ValueOptions({ values }: { values: readonly string[] }) {
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </>
  );
}
