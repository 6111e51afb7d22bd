import { DELAYS_MS, adminApi, type AdminChallenge, type Category, type Difficulty } from '@ctf/contract';
import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Form, InputGroup } from 'react-bootstrap';
import {
  deleteChallenge,
  isoToLocalInput,
  localInputToIso,
  scheduleRelease,
  toggleStatus,
  updateChallenge,
  useAdminChallenges,
  type ChallengeForm as Body,
} from '../api/challenges';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { NO_SOLUTION, scoringValues, type ChallengeFormValues } from '../challenge-form-values';
import { instanceValues } from '../instance-form-values';
import { ChallengeForm } from './ChallengeForm';
import { QueryState } from './QueryState';
import { TeamFlagReveal } from './TeamFlagReveal';
import { useMayCall, useStaffRole } from '../staff-role';
import { OwnersField } from './OwnersField';

function formValues(c: AdminChallenge): ChallengeFormValues {
  return {
    name: c.name,
    written_by: c.written_by,
    category: c.category as Category,
    difficulty: c.difficulty as Difficulty,
    flags: c.flags.length > 0 ? c.flags.map((f) => ({ ...f })) : [{ type: 'static', content: c.flag }],
    per_team: c.per_team,
    per_team_on_page: c.per_team_on_page,
    max_attempts: c.max_attempts === null ? '' : String(c.max_attempts),
    description: c.description,
    files: c.hlinks,
    release_at: isoToLocalInput(c.release_at),
    prerequisites: c.prerequisites,
    scoring: scoringValues(c.scoring),
    instance: instanceValues(c.instance),
    solution: c.solution ? { ...c.solution, files: [...c.solution.files] } : NO_SOLUTION,
    hints: c.hints.map((h) => ({
      _id: h._id,
      title: h.title,
      content: h.content,
      cost: String(h.cost),
      unlocked_by: h.unlocked_by,
    })),
  };
}

/**
 * View Challenges: each challenge (in the panel's one AdminTable) with Enable/Disable, Edit and Delete. Edit opens the form; a
 * successful save returns to the list after DELAYS_MS.afterEditSuccess (docs/product.md §4).
 */
export function ViewChallengesTab({ act }: { act: AdminAct }) {
  const challenges = useAdminChallenges();
  const [editing, setEditingState] = useState<AdminChallenge | null>(null);
  // Only an admin names owners (the server refuses owner_ids from anyone else).
  const setsOwners = useStaffRole() === 'admin';
  const [owners, setOwners] = useState<string[] | null>(null);
  const setEditing = (c: AdminChallenge | null) => {
    setEditingState(c);
    setOwners(c ? c.owners.map((o) => o._id) : null);
  };
  const [revealing, setRevealing] = useState<AdminChallenge | null>(null);
  // A competitor's own flag is an admin's alone to reveal (an author edits the challenge).
  const mayReveal = useMayCall()(adminApi.revealTeamFlag);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [wave, setWave] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function run(call: Parameters<AdminAct>[0]) {
    if (busy) return null;
    setBusy(true);
    try {
      return await act(call);
    } finally {
      setBusy(false);
    }
  }

  async function save(challenge: AdminChallenge, body: Body) {
    const outcome = await run(() => updateChallenge(challenge._id, body));
    if (outcome?.success) timer.current = setTimeout(() => setEditing(null), DELAYS_MS.afterEditSuccess);
  }

  /** The list's columns; a prerequisite is named by the challenge it points at in `list`. */
  const columns = (list: AdminChallenge[]): AdminColumn<AdminChallenge>[] => [
    {
      header: 'Select',
      hideHeader: true,
      cell: (c) => (
        <Form.Check
          aria-label={`Select ${c.name}`}
          checked={selected.includes(c._id)}
          onChange={(e) =>
            setSelected((s) => (e.target.checked ? [...s, c._id] : s.filter((x) => x !== c._id)))
          }
        />
      ),
    },
    { header: 'Name', cell: (c) => c.name },
    { header: 'Category', cell: (c) => c.category },
    { header: 'Difficulty', cell: (c) => c.difficulty },
    { header: 'Points', cell: (c) => c.points },
    { header: 'Solves', cell: (c) => c.user_completions },
    { header: 'Files', cell: (c) => c.hlinks.join(', ') },
    // Who besides admins works on it (an author sees only the challenges it owns).
    {
      header: 'Owners',
      cell: (c) =>
        c.owners.length > 0 ? (
          c.owners.map((o) => o.username).join(', ')
        ) : (
          <span className="text-body-secondary">Admins only</span>
        ),
    },
    {
      header: 'Release',
      cell: (c) => (
        <>
          {c.release_at && Date.parse(c.release_at) > Date.now() ? (
            <Badge bg="info" text="dark">
              Scheduled for {new Date(c.release_at).toLocaleString()}
            </Badge>
          ) : (
            'Released'
          )}
          {c.prerequisites.length > 0 && (
            <div className="small text-body-secondary">
              Requires {c.prerequisites.map((p) => list.find((x) => x._id === p)?.name ?? p).join(', ')}
            </div>
          )}
        </>
      ),
    },
    {
      header: 'Status',
      cell: (c) => (
        <>
          <Badge bg={c.is_active ? 'success' : 'secondary'}>{c.is_active ? 'Active' : 'Disabled'}</Badge>
          {c.per_team && (
            <Badge bg="light" text="dark" className="ms-1 border">
              Per-team flags{c.per_team_on_page ? ', shown on its page' : ''}
            </Badge>
          )}
          {c.instance && (
            <Badge bg="light" text="dark" className="ms-1 border">
              Instance: {c.instance.image}
            </Badge>
          )}
        </>
      ),
    },
    {
      header: 'Actions',
      hideHeader: true,
      end: true,
      nowrap: true,
      cell: (c) => (
        <>
          <Button
            size="sm"
            variant={c.is_active ? 'outline-secondary' : 'outline-success'}
            className="me-1"
            aria-disabled={busy}
            aria-label={`${c.is_active ? 'Disable' : 'Enable'} ${c.name}`}
            onClick={() => void run(() => toggleStatus(c._id))}
          >
            {c.is_active ? 'Disable' : 'Enable'}
          </Button>
          {c.per_team && mayReveal && (
            <Button
              size="sm"
              variant="outline-secondary"
              className="me-1"
              aria-label={`Show a competitor's flag of ${c.name}`}
              onClick={() => setRevealing(c)}
            >
              Show flag
            </Button>
          )}
          <Button
            size="sm"
            variant="outline-primary"
            className="me-1"
            aria-disabled={busy}
            aria-label={`Edit ${c.name}`}
            onClick={() => !busy && setEditing(c)}
          >
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline-danger"
            aria-disabled={busy}
            aria-label={`Delete ${c.name}`}
            onClick={() => {
              if (window.confirm(adminApi.confirmDeleteText('challenge')))
                void run(() => deleteChallenge(c._id));
            }}
          >
            Delete
          </Button>
        </>
      ),
    },
  ];

  if (editing) {
    return (
      <section aria-label={`Edit ${editing.name}`}>
        <h2 className="h4">Edit: {editing.name}</h2>
        {setsOwners && owners !== null && (
          <OwnersField challenge={editing} value={owners} onChange={setOwners} />
        )}
        <ChallengeForm
          initial={formValues(editing)}
          selfId={editing._id}
          submitLabel="Save Changes"
          busy={busy}
          onSubmit={(body) =>
            void save(editing, setsOwners && owners !== null ? { ...body, owner_ids: owners } : body)
          }
          onCancel={() => setEditing(null)}
        />
      </section>
    );
  }

  return (
    <QueryState query={challenges} what="challenges">
      {(list) =>
        list.length === 0 ? (
          <p>No challenges yet.</p>
        ) : (
          <>
            {revealing && (
              <TeamFlagReveal
                key={revealing._id}
                challenge={revealing}
                act={act}
                onClose={() => setRevealing(null)}
              />
            )}
            <Form
              className="d-flex flex-wrap gap-2 align-items-end mb-2"
              aria-label="Release a wave"
              onSubmit={(e) => {
                e.preventDefault();
                const at = localInputToIso(wave);
                if (selected.length === 0 || !at) return;
                void run(() => scheduleRelease(selected, at)).then((o) => o?.success && setSelected([]));
              }}
            >
              <Form.Group controlId="wave-release-at">
                <Form.Label className="small mb-0">Release time for the selected challenges</Form.Label>
                <InputGroup size="sm">
                  <Form.Control
                    type="datetime-local"
                    value={wave}
                    onChange={(e) => setWave(e.target.value)}
                  />
                  <Button type="submit" aria-disabled={busy || selected.length === 0 || !wave}>
                    Schedule {selected.length} selected
                  </Button>
                </InputGroup>
              </Form.Group>
              <Button
                size="sm"
                variant="outline-secondary"
                aria-disabled={busy || selected.length === 0}
                onClick={() => {
                  if (selected.length === 0) return;
                  void run(() => scheduleRelease(selected, null)).then((o) => o?.success && setSelected([]));
                }}
              >
                Release selected now
              </Button>
            </Form>
            <AdminTable
              label="Challenges"
              columns={columns(list)}
              rows={list}
              rowKey={(c) => c._id}
              rowTestId="admin-challenge-row"
              empty={null}
            />
          </>
        )
      }
    </QueryState>
  );
}
