import { MAX_TEAM_SIZE } from '@ctf/contract';
import { Accordion } from 'react-bootstrap';
import { Link } from 'react-router';

/** The five questions of SPEC.md §2. */
export function Faq() {
  return (
    <section aria-labelledby="faq-heading" className="my-5">
      <h2 id="faq-heading">FAQ</h2>
      <Accordion>
        <Accordion.Item eventKey="0">
          <Accordion.Header as="h3">What is a CTF?</Accordion.Header>
          <Accordion.Body>
            A Capture The Flag (CTF) is a security competition. Each challenge hides a secret string, the flag, in a
            web site, a file, a program or a puzzle. Find the flag, submit it, and you earn the challenge&apos;s points.
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="1">
          <Accordion.Header as="h3">Do I need to be an expert?</Accordion.Header>
          <Accordion.Body>
            No. Challenges range from Simple to Extreme, so beginners and experienced players alike will find something
            to solve. It is a great way to learn.
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="2">
          <Accordion.Header as="h3">How should I prepare?</Accordion.Header>
          <Accordion.Body>
            Many challenges are easiest with Kali Linux, which comes with the common security tools installed. Follow
            our <Link to="/kali-setup-guide">Kali setup guide</Link> to run it in a virtual machine, and see{' '}
            <Link to="/challenge_help">how to connect to remote challenges</Link>.
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="3">
          <Accordion.Header as="h3">How big can a team be?</Accordion.Header>
          <Accordion.Body>
            Teams have up to {MAX_TEAM_SIZE} members. You can also compete solo. Points you score before joining a team
            stay with you; points your team scores stay with the team.
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="4">
          <Accordion.Header as="h3">How do I create or join a team?</Accordion.Header>
          <Accordion.Body>
            Open your <Link to="/profile">Profile</Link>, then choose Go to Team Page. Create a team by entering a name,
            or pick an existing team from the dropdown and request to join. The team leader approves join requests.
          </Accordion.Body>
        </Accordion.Item>
      </Accordion>
    </section>
  );
}
