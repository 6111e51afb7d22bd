/** Database ids are integers inside; the API shows them as strings (`_id`). */
export const toApiId = (id: number): string => String(id);
export const toApiIdOrNull = (id: number | null): string | null => (id === null ? null : String(id));
