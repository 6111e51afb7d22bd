import type { AdminChallenge } from '@ctf/contract';
import { Form } from 'react-bootstrap';
import { useAdminUsers, useAdmins } from '../api/users';

/**
 * Who owns a challenge besides admins (an admin's choice; owner_ids on save): authors and admins,
 * as checkboxes. An author owns what it creates and reads only the challenges it owns.
 */
export function OwnersField({
  challenge,
  value,
  onChange,
}: {
  challenge: Pick<AdminChallenge, '_id' | 'name'>;
  value: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const users = useAdminUsers();
  const admins = useAdmins();
  const staff = [...(users.data ?? []).filter((u) => u.role === 'author'), ...(admins.data ?? [])].sort(
    (a, b) => a.username.localeCompare(b.username),
  );
  return (
    <fieldset className="border rounded p-2 mb-3" aria-label={`Owners of ${challenge.name}`}>
      <legend className="fs-6 w-auto px-1 mb-1">Owners</legend>
      <Form.Text as="p" className="mt-0">
        The authors who may read and change this challenge&rsquo;s flags, hints, solution and files. None:
        admins only.
      </Form.Text>
      {staff.length === 0 ? (
        <p className="text-body-secondary mb-0">
          No author yet: give someone the author role in the Users tab.
        </p>
      ) : (
        staff.map((u) => (
          <Form.Check
            key={u._id}
            id={`owner-${challenge._id}-${u._id}`}
            type="checkbox"
            label={`${u.username} (${u.role})`}
            checked={value.includes(u._id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, u._id] : value.filter((id) => id !== u._id))
            }
          />
        ))
      )}
    </fieldset>
  );
}
