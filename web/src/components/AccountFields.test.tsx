import { PASSWORD_RULES } from '@ctf/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../lib/api';
import { UNREACHABLE, useSubmission } from '../lib/use-submission';
import { FormStatus, PASSWORD_HELP, PasswordField } from './AccountFields';

function Probe({ work }: { work: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const form = useSubmission('The request failed');
  return (
    <Form onSubmit={(e) => void form.submit(e, work)}>
      <PasswordField
        id="p"
        label="New password"
        purpose="new"
        value={password}
        onChange={setPassword}
        help={PASSWORD_HELP}
      />
      <PasswordField
        id="c"
        label="Password"
        purpose="current"
        value={password}
        onChange={setPassword}
        help={PASSWORD_HELP}
      />
      <FormStatus error={form.error} notice={form.notice} />
      <Button type="submit" disabled={form.busy}>
        Go
      </Button>
    </Form>
  );
}

describe('the account forms’ shared fields and submission', () => {
  it('asks a new password for the rules and says them; a current one only bounds its length', () => {
    render(<Probe work={async () => {}} />);
    const fresh = screen.getByLabelText('New password');
    expect(fresh).toHaveAttribute('autocomplete', 'new-password');
    expect(fresh).toHaveAttribute('minlength', String(PASSWORD_RULES.minLength));
    expect(fresh).toHaveAccessibleDescription(PASSWORD_HELP);
    const current = screen.getByLabelText('Password');
    expect(current).toHaveAttribute('autocomplete', 'current-password');
    expect(current).not.toHaveAttribute('minlength');
    expect(current).not.toHaveAccessibleDescription();
  });

  it('turns an unreachable server into its own words and any other throw into the fallback', async () => {
    const { unmount } = render(
      <Probe
        work={() => {
          throw new NetworkError('offline');
        }}
      />,
    );
    await userEvent.type(screen.getByLabelText('New password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByText(UNREACHABLE)).toBeInTheDocument();
    unmount();
    render(<Probe work={() => Promise.reject(new Error('boom'))} />);
    await userEvent.type(screen.getByLabelText('New password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByText('The request failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go' })).toBeEnabled();
  });
});
