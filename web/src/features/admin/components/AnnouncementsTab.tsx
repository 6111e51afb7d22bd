import {
  ANNOUNCEMENT_BODY_MAX_LENGTH,
  ANNOUNCEMENT_TITLE_MAX_LENGTH,
  announcementsApi,
  webhookApi,
  type AdminAnnouncement,
} from '@ctf/contract';
import { useMayCall } from '../staff-role';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-bootstrap';
import {
  createAnnouncement,
  deleteAnnouncement,
  updateAnnouncement,
  useAdminAnnouncements,
} from '../api/announcements';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';
import { WebhookStatusView } from './WebhookStatusView';

const EMPTY = { title: '', body: '', pinned: false };
const posted = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Announcements: post one (Markdown body), or edit, pin and delete the ones posted. Players see a
 * new one at once as a toast (live event stream) and on /announcements.
 */
export function AnnouncementsTab({ act }: { act: AdminAct }) {
  const list = useAdminAnnouncements();
  const [form, setForm] = useState(EMPTY);
  const [editing, setEditing] = useState<string | null>(null);
  const may = useMayCall();
  // A monitor reads the announcements; posting, editing, pinning and deleting are an admin's.
  const writes = may(announcementsApi.createAnnouncement);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const outcome = await act(() => (editing ? updateAnnouncement(editing, form) : createAnnouncement(form)));
    if (outcome.success) {
      setForm(EMPTY);
      setEditing(null);
    }
  }

  function edit(a: AdminAnnouncement) {
    setEditing(a._id);
    setForm({ title: a.title, body: a.body, pinned: a.pinned });
  }

  const columns: AdminColumn<AdminAnnouncement>[] = [
    { header: 'Title', cell: (a) => a.title },
    { header: 'Posted', cell: (a) => posted.format(new Date(a.created_at)) },
    {
      header: 'Pinned',
      cell: (a) =>
        !writes ? (
          a.pinned ? (
            'Pinned'
          ) : (
            ''
          )
        ) : (
          <Button
            size="sm"
            variant={a.pinned ? 'warning' : 'outline-secondary'}
            aria-pressed={a.pinned}
            aria-label={`${a.pinned ? 'Unpin' : 'Pin'} announcement ${a.title}`}
            onClick={() =>
              void act(() => updateAnnouncement(a._id, { title: a.title, body: a.body, pinned: !a.pinned }))
            }
          >
            {a.pinned ? 'Pinned' : 'Pin'}
          </Button>
        ),
    },
  ];
  if (writes)
    columns.push({
      header: 'Actions',
      hideHeader: true,
      end: true,
      cell: (a) => (
        <>
          <Button
            size="sm"
            variant="outline-primary"
            className="me-2"
            aria-label={`Edit announcement ${a.title}`}
            onClick={() => edit(a)}
          >
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline-danger"
            aria-label={`Delete announcement ${a.title}`}
            onClick={() => {
              if (window.confirm('Are you sure you want to delete this announcement?'))
                void act(() => deleteAnnouncement(a._id));
            }}
          >
            Delete
          </Button>
        </>
      ),
    });

  return (
    <>
      {may(webhookApi.webhookStatus) && <WebhookStatusView />}
      {writes && (
        <Form
          onSubmit={(e) => void submit(e)}
          className="mb-4"
          aria-label={editing ? 'Edit announcement' : 'Post an announcement'}
        >
          <h2 className="h5">{editing ? 'Edit announcement' : 'Post an announcement'}</h2>
          <Form.Group className="mb-2" controlId="announcement-title">
            <Form.Label>Title</Form.Label>
            <Form.Control
              required
              maxLength={ANNOUNCEMENT_TITLE_MAX_LENGTH}
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="mb-2" controlId="announcement-body">
            <Form.Label>Body (Markdown)</Form.Label>
            <Form.Control
              as="textarea"
              rows={6}
              required
              maxLength={ANNOUNCEMENT_BODY_MAX_LENGTH}
              value={form.body}
              onChange={(e) => setForm({ ...form, body: e.target.value })}
            />
          </Form.Group>
          <Form.Check
            className="mb-2"
            id="announcement-pinned"
            label="Pinned (shown on the home page)"
            checked={form.pinned}
            onChange={(e) => setForm({ ...form, pinned: e.target.checked })}
          />
          <Button type="submit">{editing ? 'Save' : 'Post'}</Button>
          {editing && (
            <Button
              variant="link"
              onClick={() => {
                setEditing(null);
                setForm(EMPTY);
              }}
            >
              Cancel
            </Button>
          )}
        </Form>
      )}
      <QueryState query={list} what="announcements">
        {(rows) => (
          <AdminTable
            label="Announcements"
            columns={columns}
            rows={rows}
            rowKey={(a) => a._id}
            empty={<p>No announcements yet.</p>}
          />
        )}
      </QueryState>
    </>
  );
}
