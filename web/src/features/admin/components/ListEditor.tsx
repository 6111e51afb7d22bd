import { Fragment, type ReactNode } from 'react';
import { Button, Form } from 'react-bootstrap';

/** One row of a ListEditor: its value and the list operations that act on it. */
export interface ListEditorRow<T> {
  item: T;
  index: number;
  /** How many rows the list has. */
  count: number;
  update: (patch: Partial<T>) => void;
  remove: () => void;
  /** Moves the row to another place in the list. */
  move: (to: number) => void;
}

/**
 * An ordered list of rows of fields (the challenge form's flags and hints): a legend, its help
 * text, one row per item drawn by `children`, and an Add button while the list is below `max`.
 * Adding, removing, changing and reordering rows happen here; the rows only lay out their fields.
 */
export function ListEditor<T>({
  legend,
  help,
  items,
  onChange,
  rowKey,
  max,
  addLabel,
  blank,
  children,
}: {
  legend: string;
  help: ReactNode;
  items: readonly T[];
  onChange: (items: T[]) => void;
  rowKey: (item: T, index: number) => string | number;
  max: number;
  addLabel: string;
  /** A new, empty row. */
  blank: () => T;
  children: (row: ListEditorRow<T>) => ReactNode;
}) {
  const update = (i: number, patch: Partial<T>) =>
    onChange(items.map((item, j) => (j === i ? { ...item, ...patch } : item)));
  const remove = (i: number) => onChange(items.filter((_, j) => j !== i));
  const move = (i: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(i, 1);
    next.splice(to, 0, item!);
    onChange(next);
  };
  return (
    <fieldset>
      <legend className="form-label fs-6 mb-1">{legend}</legend>
      <Form.Text as="p" className="mt-0">
        {help}
      </Form.Text>
      {items.map((item, i) => (
        <Fragment key={rowKey(item, i)}>
          {children({
            item,
            index: i,
            count: items.length,
            update: (patch) => update(i, patch),
            remove: () => remove(i),
            move: (to) => move(i, to),
          })}
        </Fragment>
      ))}
      {items.length < max && (
        <Button variant="outline-secondary" size="sm" onClick={() => onChange([...items, blank()])}>
          {addLabel}
        </Button>
      )}
    </fieldset>
  );
}
